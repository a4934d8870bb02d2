import { provideDemoKernel } from '../a2a/demo-upstream';
import { startKernelServer } from './kernel-server';

/**
 * Imported for its effect: registers the embedded demo kernel for IAC_CODE_AGUI_UPSTREAM=demo. Only the demo
 * entry point, the tests and the examples import it; the production build leaves this folder out.
 */
provideDemoKernel((options) => startKernelServer(options));
