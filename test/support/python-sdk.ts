import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';

const REPO_ROOT = path.resolve(__dirname, '../..');
/** The venv of the Python AG-UI SDK (scripts/python-sdk-venv.sh builds it from test/python-sdk/requirements.txt). */
const VENV =
  process.env.AGUI_PYTHON_SDK_VENV || path.join(REPO_ROOT, 'node_modules', '.cache', 'ag-ui-python-sdk');
const READER = path.join(REPO_ROOT, 'test', 'python-sdk', 'read_sse.py');

/** One event as the Python SDK read it: its last event id, the pydantic class it validated as, its fields. */
export interface PythonSdkEvent {
  readonly id: string | null;
  readonly model: string;
  readonly event: Record<string, unknown>;
}

/**
 * Reads an SSE stream with Python's `ag-ui-protocol` (test/python-sdk/read_sse.py): each event's data must
 * validate as the SDK's `Event` union, or the reader fails and so does this. Never skips: a missing venv is a
 * failed setup with the fix in the message.
 */
export function readWithPythonSdk(sse: string): Promise<PythonSdkEvent[]> {
  const python = path.join(VENV, 'bin', 'python');
  if (!fs.existsSync(python))
    throw new Error(`${python} is missing: run scripts/python-sdk-venv.sh (scripts/test-setup.sh does)`);
  return new Promise((resolve, reject) => {
    const child = execFile(python, [READER], { maxBuffer: 64 << 20 }, (error, stdout, stderr) => {
      if (error) reject(new Error(`read_sse.py failed: ${error.message}\n${stderr}`));
      else resolve(JSON.parse(stdout) as PythonSdkEvent[]);
    });
    child.stdin!.end(sse);
  });
}
