import { parseUpstreamPlan, planText, type UpstreamPlan } from './upstream-plan';

describe('parseUpstreamPlan', () => {
  it.each([
    { text: 'burst 100000', plan: { kind: 'burst', deltas: 100000 } },
    { text: ' paced 1000 5000 ', plan: { kind: 'paced', intervalMs: 1, deltas: 5000 } },
    { text: 'every 50 100', plan: { kind: 'paced', intervalMs: 50, deltas: 100 } },
    { text: 'silent', plan: { kind: 'silent' } },
    { text: 'burst 0', plan: undefined },
    { text: 'burst 1.5', plan: undefined },
    { text: 'every 0 3', plan: undefined },
    { text: 'hello', plan: undefined },
  ])('"$text"', ({ text, plan }) => {
    expect(parseUpstreamPlan(text)).toEqual(plan);
  });

  it.each<UpstreamPlan>([
    { kind: 'burst', deltas: 7 },
    { kind: 'paced', intervalMs: 0.5, deltas: 3 },
    { kind: 'silent' },
  ])('planText round-trips $kind', (plan) => {
    expect(parseUpstreamPlan(planText(plan))).toEqual(plan);
  });
});
