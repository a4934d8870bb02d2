import type { A2aParts } from '../a2a/a2a.module';
import type { AuthParts } from '../auth/auth.module';
import type { CommonParts } from '../common/common.module';
import type { RunsParts } from '../runs/runs.module';
import type { ThreadsParts } from '../threads/threads.module';

/**
 * The replacement parts a host supplies to `AguiGatewayModule.forRoot` (CONTRIBUTING.md): the union of what
 * each feature module declares it builds, so `config/` knows no feature's types.
 */
export interface GatewayParts extends AuthParts, ThreadsParts, A2aParts, CommonParts, RunsParts {}
