/** pino-pretty is a development dependency; a production image may not have it. */
export function isPrettyAvailable(): boolean {
  try {
    require.resolve('pino-pretty');
    return true;
  } catch {
    return false;
  }
}
