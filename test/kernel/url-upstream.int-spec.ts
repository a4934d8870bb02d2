import { describeRealKernelRuns } from '../support/real-kernel-runs';

describeRealKernelRuns('url');
