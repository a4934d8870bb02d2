import { ClientFactory } from '@a2a-js/sdk/client';
import { DefaultRequestHandler } from '@a2a-js/sdk/server';
import { verifyEvents } from '@ag-ui/client';
import { EventSchema } from '@ag-ui/core/schemas';

it('loads the sdk', () => {
  expect(typeof ClientFactory).toBe('function');
  expect(typeof DefaultRequestHandler).toBe('function');
  expect(typeof verifyEvents).toBe('function');
  expect(EventSchema).toBeDefined();
});
