import type { VNode } from 'preact';
import type { Profile } from '../../../profile.js';

export interface PanelProps<T = unknown> {
  profile: Profile;
  data: T;
  /** Path prefix for links ('' without a proxy prefix). */
  base: string;
}

export type Panel = (props: PanelProps<never>) => VNode;
