import { RunPhaseMachine, type RunPhase, type RunPhaseEvent } from './run-phase';

/** The events that lead from `streaming` to each phase. */
const PATH_TO: Record<RunPhase, RunPhaseEvent[]> = {
  streaming: [],
  cancelling: ['cancel-requested'],
  'reading-to-cancel': ['left-before-task'],
  left: ['left-keeping-interrupts'],
  interrupted: ['interrupted'],
  ended: ['ended'],
};

function machineAt(phase: RunPhase): RunPhaseMachine {
  const machine = new RunPhaseMachine();
  for (const event of PATH_TO[phase]) machine.apply(event);
  expect(machine.phase).toBe(phase);
  return machine;
}

/** Events that come from outside the run's own code (a client, the cancel route, shutdown, a timer). */
const OUTSIDE: RunPhaseEvent[] = [
  'cancel-requested',
  'shutdown',
  'left-keeping-interrupts',
  'left-after-task',
  'left-before-task',
  'task-named',
  'task-wait-over',
];

describe('RunPhaseMachine (docs/architecture.md#a-run)', () => {
  it.each<[RunPhase, RunPhaseEvent, RunPhase | 'ignored', string]>([
    ['streaming', 'cancel-requested', 'cancelling', 'the cancel route stops the reading'],
    ['streaming', 'shutdown', 'cancelling', 'the drain time is over'],
    ['streaming', 'left-before-task', 'reading-to-cancel', 'the task id is still to be learned'],
    ['streaming', 'left-after-task', 'ended', 'the task is cancelled and the execution ended at once'],
    ['streaming', 'left-keeping-interrupts', 'left', 'a resume not yet accepted keeps its interrupt'],
    ['streaming', 'task-named', 'ignored', 'a client still there needs no cancel'],
    ['streaming', 'interrupted', 'interrupted', 'RUN_FINISHED(interrupt) went out'],
    ['streaming', 'ended', 'ended', 'the terminal event goes out'],
    ['cancelling', 'cancel-requested', 'cancelling', 'a second cancel only aborts again'],
    ['cancelling', 'shutdown', 'ignored', 'shutdown has nothing to add to a cancel'],
    ['cancelling', 'left-after-task', 'ended', 'a client leaving still ends the execution at once'],
    [
      'cancelling',
      'interrupted',
      'interrupted',
      'an interrupt already announced stays the only terminal event',
    ],
    ['reading-to-cancel', 'task-named', 'left', 'the task is cancelled as soon as a frame names it'],
    [
      'reading-to-cancel',
      'task-wait-over',
      'reading-to-cancel',
      'the reading is aborted; the phase waits for it to stop',
    ],
    [
      'reading-to-cancel',
      'cancel-requested',
      'reading-to-cancel',
      'a task id still learned is cancelled too',
    ],
    ['reading-to-cancel', 'left-run-stopped', 'ended', 'the reading stopped: the execution is made terminal'],
    ['left', 'left-run-stopped', 'ended', 'the reading stopped: the execution is made terminal'],
    ['left', 'cancel-requested', 'ignored', 'the reading was aborted already'],
    ['interrupted', 'left-after-task', 'ignored', 'a disconnect after an interrupt cancels nothing'],
    ['interrupted', 'cancel-requested', 'ignored', 'the run is over'],
    ['ended', 'left-after-task', 'ignored', 'a disconnect after the terminal event cancels nothing'],
    ['ended', 'shutdown', 'ignored', 'the run is over'],
    ['ended', 'left-run-stopped', 'ignored', 'the execution was already made terminal when the client left'],
  ])('%s + %s → %s: %s', (from, event, expected) => {
    const machine = machineAt(from);
    expect(machine.apply(event)).toBe(expected !== 'ignored');
    expect(machine.phase).toBe(expected === 'ignored' ? from : expected);
  });

  it.each(Object.keys(PATH_TO) as RunPhase[])(
    'never throws for an event from outside the run in %s: those race its own end',
    (phase) => {
      for (const event of OUTSIDE) expect(() => machineAt(phase).apply(event)).not.toThrow();
    },
  );

  it.each<[RunPhase, RunPhaseEvent]>([
    ['left', 'interrupted'],
    ['left', 'ended'],
    ['reading-to-cancel', 'ended'],
    ['interrupted', 'ended'],
    ['ended', 'ended'],
    ['ended', 'interrupted'],
    ['streaming', 'left-run-stopped'],
  ])('throws on %s + %s: the run took a wrong turn of its own', (phase, event) => {
    const machine = machineAt(phase);
    expect(() => machine.apply(event)).toThrow(`'${event}' cannot happen while '${phase}'`);
    expect(machine.phase).toBe(phase);
  });

  it.each<[RunPhase, boolean]>([
    ['streaming', false],
    ['cancelling', false],
    ['reading-to-cancel', true],
    ['left', true],
    ['interrupted', false],
    ['ended', true],
  ])('isOverForTheClient in %s is %s: only a client that left is owed no terminal event', (phase, isOver) => {
    expect(machineAt(phase).isOverForTheClient).toBe(isOver);
  });
});
