// Jest's node environment, plus a sweep when a test file has finished (after all its hooks): whatever the file
// started and did not close (test/support/open-resources.ts) is closed now, newest first, so a setup that failed
// halfway leaves no child process or server behind and Jest can exit.
const { TestEnvironment } = require('jest-environment-node');

const OPEN_RESOURCES_KEY = '__aguiOpenTestResources';

class ClosingEnvironment extends TestEnvironment {
  async handleTestEvent(event) {
    if (event.name !== 'run_finish') return;
    const open = this.global[OPEN_RESOURCES_KEY];
    if (!open || open.size === 0) return;
    for (const resource of [...open].reverse()) {
      try {
        await resource.close();
      } catch (error) {
        process.stderr.write(
          `closing ${resource.name} left open by the test file failed: ${String(error)}\n`,
        );
      }
    }
  }
}

module.exports = ClosingEnvironment;
