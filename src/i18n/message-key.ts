import { EN } from './catalogue/en';

/** A key of the message catalogue; user-facing text is only ever built from one of these. */
export type MessageKey = keyof typeof EN;
