import { Request } from '../http/request.js';
import { Kernel } from './kernel.js';

/** A GET request for the kernel tests. */
export function get(path = '/'): Request {
  return new Request({ method: 'GET', target: path });
}

/** A kernel whose requests all go to `controller`, unless a listener chose another. */
export function kernelWithController(controller: (request: Request) => unknown): Kernel {
  const kernel = new Kernel();
  kernel.dispatcher.on('request', (event) => {
    event.request.attributes.controller ??= controller;
  }, 32);
  return kernel;
}
