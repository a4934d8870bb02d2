import type { BaseEvent } from '@ag-ui/core';
import type { MonoTypeOperatorFunction } from 'rxjs';

/**
 * Injection token of the host's run operators (`AguiGatewayModule` option `eventOperators`,
 * docs/extending.md#run-operators): RxJS operators applied, in order, to the AG-UI events of every run
 * before they are numbered and sent, on every transport. An audit `tap` or a redaction `map`; an
 * operator must stay synchronous and keep the terminal event, and one that throws, or lets something
 * out later than the call that handed it in (`throughOperators`), cuts the run's connection like a
 * fault of the gateway.
 */
export const RUN_EVENT_OPERATORS = Symbol('RUN_EVENT_OPERATORS');

/** One operator over a run's AG-UI events. */
export type RunEventOperator = MonoTypeOperatorFunction<BaseEvent>;
