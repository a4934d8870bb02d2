/**
 * The phase of one run (docs/architecture.md#a-run). One value, owned by its RunExecution, changed only
 * through `RunPhaseMachine.apply`, whose table below is every transition there is.
 */
export type RunPhase =
  /** Events flow to the client. */
  | 'streaming'
  /** The cancel route or the shutdown stopped the reading: the run ends with RUN_ERROR CANCELLED. */
  | 'cancelling'
  /** The client left before the kernel named the task: reading goes on only to learn the id to cancel. */
  | 'reading-to-cancel'
  /**
   * The client left: nothing more is sent; once the reading stops the execution becomes terminal, unless
   * interrupts keep it.
   */
  | 'left'
  /** The interrupts are durable and RUN_FINISHED(interrupt) went out: nothing cancels the task any more. */
  | 'interrupted'
  /** The terminal event went out, or the execution of a run whose client left was made terminal. */
  | 'ended';

/** What can happen to a run. */
export type RunPhaseEvent =
  /** The cancel extension cancelled this execution. */
  | 'cancel-requested'
  /** The drain time is over at shutdown. */
  | 'shutdown'
  /** The client left while interrupts are pending (a resume not yet accepted): cancel nothing. */
  | 'left-keeping-interrupts'
  /** The client left and the task is known: it is cancelled and the execution made terminal at once. */
  | 'left-after-task'
  /** The client left before any frame named the task. */
  | 'left-before-task'
  /** A frame named the task (while reading to cancel: it is cancelled now). */
  | 'task-named'
  /** A run reading to cancel waited the cancel timeout for a task id: it stops reading. */
  | 'task-wait-over'
  /** The run ended at a durable interrupt. */
  | 'interrupted'
  /** The run produces its terminal event (RUN_FINISHED or RUN_ERROR). */
  | 'ended'
  /** The reading of a run whose client left has stopped and nothing pending keeps the execution. */
  | 'left-run-stopped';

/**
 * Per phase, the phase each event leads to. `IGNORED`: the event can arrive then (a disconnect or a cancel
 * racing the run's own end) and changes nothing. An event missing from a phase's row cannot happen there:
 * `apply` throws, because the run's own code took a wrong turn.
 */
const IGNORED = 'ignored';
type Outcome = RunPhase | typeof IGNORED;

const LEAVING: Partial<Record<RunPhaseEvent, Outcome>> = {
  'left-keeping-interrupts': 'left',
  'left-after-task': 'ended',
  'left-before-task': 'reading-to-cancel',
};

const OVER: Partial<Record<RunPhaseEvent, Outcome>> = {
  'cancel-requested': IGNORED,
  shutdown: IGNORED,
  'left-keeping-interrupts': IGNORED,
  'left-after-task': IGNORED,
  'left-before-task': IGNORED,
  'task-named': IGNORED,
  'task-wait-over': IGNORED,
};

export const RUN_PHASE_TRANSITIONS: Readonly<Record<RunPhase, Partial<Record<RunPhaseEvent, Outcome>>>> = {
  streaming: {
    'cancel-requested': 'cancelling',
    shutdown: 'cancelling',
    ...LEAVING,
    'task-named': IGNORED,
    'task-wait-over': IGNORED,
    interrupted: 'interrupted',
    ended: 'ended',
  },
  cancelling: {
    // A second cancel only repeats the abort.
    'cancel-requested': 'cancelling',
    shutdown: IGNORED,
    ...LEAVING,
    'task-named': IGNORED,
    'task-wait-over': IGNORED,
    // RUN_FINISHED(interrupt) already went out: that stays the run's one terminal event.
    interrupted: 'interrupted',
    ended: 'ended',
  },
  'reading-to-cancel': {
    // The reading is aborted, but a task id it still learns is cancelled all the same.
    'cancel-requested': 'reading-to-cancel',
    shutdown: IGNORED,
    'left-keeping-interrupts': IGNORED,
    'left-after-task': IGNORED,
    'left-before-task': IGNORED,
    'task-named': 'left',
    'task-wait-over': 'reading-to-cancel',
    'left-run-stopped': 'ended',
  },
  left: { ...OVER, 'left-run-stopped': 'ended' },
  interrupted: { ...OVER },
  ended: { ...OVER, 'left-run-stopped': IGNORED },
};

/** The phase of one run and its transitions; `apply` answers whether the event changed anything. */
export class RunPhaseMachine {
  private current: RunPhase = 'streaming';

  get phase(): RunPhase {
    return this.current;
  }

  /** True when the event was taken (its effects are due), false when it is ignored in this phase. */
  apply(event: RunPhaseEvent): boolean {
    const outcome = RUN_PHASE_TRANSITIONS[this.current][event];
    if (outcome === undefined) throw new Error(`run phase: '${event}' cannot happen while '${this.current}'`);
    if (outcome === IGNORED) return false;
    this.current = outcome;
    return true;
  }

  /**
   * Read when the run's reading stops, before its terminal event: the client left (or left and the run was
   * ended for it), so no terminal event is due.
   */
  get isOverForTheClient(): boolean {
    return this.current === 'reading-to-cancel' || this.current === 'left' || this.current === 'ended';
  }
}
