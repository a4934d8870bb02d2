/**
 * The embedded demo kernel as the demo build provides it (docs/architecture.md#decisions): the production
 * build and image hold no demo code, so `IAC_CODE_AGUI_UPSTREAM=demo` starts only what a demo entry point
 * (the demo build's entry point, the tests' setup) registered here before the gateway boots.
 */
export type StartDemoKernel = (options: { host: string; port: number; token: string }) => Promise<{
  readonly url: string;
  close(): Promise<void>;
}>;

export const DEMO_NOT_BUILT_MESSAGE =
  'IAC_CODE_AGUI_UPSTREAM=demo, but this production build holds no demo agent: set IAC_CODE_AGUI_A2A_URL ' +
  'to an A2A kernel or put the iac-code executable on PATH (IAC_CODE_AGUI_UPSTREAM=auto); for the demo ' +
  'agent run `npm start`, or build the image with `--target demo`; in a host, start the scripted kernel of ' +
  '`agui-a2a-gateway/testing` (`startScriptedKernel()`) and set IAC_CODE_AGUI_A2A_URL to its url.';

let provided: StartDemoKernel | undefined;

/** Called once by a demo entry point, before the gateway boots. */
export function provideDemoKernel(start: StartDemoKernel): void {
  provided = start;
}

/** The registered demo kernel; undefined in a production build. */
export function providedDemoKernel(): StartDemoKernel | undefined {
  return provided;
}
