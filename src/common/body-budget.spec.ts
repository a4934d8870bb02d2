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

  it('charges a body three times its size, at most the whole budget, and a body past the budget its size', () => {
    const budget = new BodyBudget({ bodyBudgetBytes: 100 });
    expect(budget.chargeFor(10)).toBe(30);
    expect(budget.chargeFor(34)).toBe(100);
    expect(budget.chargeFor(100)).toBe(100);
    expect(budget.chargeFor(101)).toBe(101);
    expect(budget.tryTake(budget.chargeFor(101))).toBe(false);
  });

  it('has the documented default', () => {
    expect(new BodyBudget().maxBytes).toBe(DEFAULT_BODY_BUDGET_BYTES);
  });
});
