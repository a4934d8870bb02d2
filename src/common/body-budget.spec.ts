import { BodyBudget, DEFAULT_BODY_BUDGET_BYTES } from './body-budget';

describe('BodyBudget', () => {
  it('takes bytes up to its bound and refuses, taking nothing, past it', () => {
    const budget = new BodyBudget({ bodyBudgetBytes: 100 });
    expect(budget.tryTake(60)).toBe(true);
    expect(budget.tryTake(41)).toBe(false);
    expect(budget.bytesInFlight).toBe(60);
    expect(budget.tryTake(40)).toBe(true);
    expect(budget.bytesInFlight).toBe(100);
  });

  it('takes again what was given back', () => {
    const budget = new BodyBudget({ bodyBudgetBytes: 100 });
    budget.tryTake(100);
    budget.give(100);
    expect(budget.tryTake(100)).toBe(true);
  });

  it('has the documented default', () => {
    expect(new BodyBudget().maxBytes).toBe(DEFAULT_BODY_BUDGET_BYTES);
  });
});
