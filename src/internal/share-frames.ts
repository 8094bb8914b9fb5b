/**
 * Gives `target` the stack frames of `source` but its first `skip`, under its own `Name: message` line: for
 * errors made together, whose frames are the same but for the first few, at the cost of one capture.
 * Reading `source.stack` formats it now rather than later. When that stack is not in V8's format (a custom
 * Error.prepareStackTrace writes another), `target` gets its own capture instead, from the caller of this
 * function on.
 * @example shareFrames(cause, notFound, { skip: 1 }) // notFound: its own header, the cause's frames but the first
 */
export function shareFrames(source: Error, target: Error, { skip = 0 }: { skip?: number } = {}): void {
  let stack: unknown;
  let sourceHeader = '';
  let targetHeader = '';
  try {
    stack = source.stack;
    sourceHeader = Error.prototype.toString.call(source);
    targetHeader = Error.prototype.toString.call(target);
  } catch {
    // A getter on `stack`, `name` or `message` that throws: the target captures its own.
    stack = undefined;
  }
  if (typeof stack !== 'string' || !stack.startsWith(`${sourceHeader}${FRAME_START}`)) {
    Error.captureStackTrace(target, shareFrames);
    return;
  }
  // Each frame starts a line with FRAME_START, which no message line does after the header.
  let from = sourceHeader.length;
  for (let i = 0; i < skip && from !== -1; i++) from = stack.indexOf(FRAME_START, from + 1);
  target.stack = from === -1 ? targetHeader : targetHeader + stack.slice(from);
}

const FRAME_START = '\n    at ';
