/**
 * The bench client: a separate process (forked with IPC by bench/run.ts) that POSTs runs and counts what
 * comes back, so its own CPU never lands on the gateway's or the proxy's account.
 * Process entry: `node --import tsx bench/client/bench-client.ts` (as a fork child).
 */
import { Agent, request as httpRequest, type ClientRequest } from 'node:http';
import { sharedNowUs } from '../support/shared-clock';
import type { ClientCommand, ClientReply, StreamReport, StreamTarget } from './client-protocol';
import { aguiTypeOf, SseRecordScanner, stampOf } from './sse-record-scanner';

const agent = new Agent({ keepAlive: false, maxSockets: Infinity });
let requestCounter = 0;

interface OpenStream {
  readonly done: Promise<StreamReport>;
  readonly firstEvent: Promise<void>;
  /** Whether the response has ended (a run lost, while it should be open). */
  readonly isEnded: () => boolean;
  /** What was read from `sinceUs` on (see HoldFigures). */
  holdFigures(sinceUs: number): { delayUs: number[]; heartbeatGapUs: number[] };
  abort(): void;
}

function classify(record: string, format: StreamTarget['format']): string {
  if (format === 'agui') return aguiTypeOf(record);
  return record.includes('"parts":[{"text":"') && !record.includes('assistantFinal') ? 'TEXT' : 'FRAME';
}

/** POSTs one run and scans its SSE response until it ends (or `abort()`). */
function openStream(target: StreamTarget): OpenStream {
  requestCounter += 1;
  const body = target.bodyTemplate.replaceAll('%N%', `${process.pid}-${requestCounter}`);
  const textType = target.format === 'agui' ? 'TEXT_MESSAGE_CONTENT' : 'TEXT';
  const report = {
    status: 0,
    startedUs: sharedNowUs(),
    firstEventUs: undefined as number | undefined,
    firstTextUs: undefined as number | undefined,
    endedUs: 0,
    events: 0,
    chunks: 0,
    comments: 0,
    lastType: '',
    latencyUs: [] as number[],
    delayUs: [] as number[],
    error: undefined as string | undefined,
  };
  let markFirstEvent: () => void = () => undefined;
  const firstEvent = new Promise<void>((resolve) => (markFirstEvent = resolve));
  // For holdFigures: each paced delta's read time, and each heartbeat's read time with the silence before it.
  const delayReadUs: number[] = [];
  const heartbeats: { readUs: number; gapUs: number }[] = [];
  let lastRecordUs = report.startedUs;
  const scanner = new SseRecordScanner(target.format === 'agui' ? '\n\n' : '\r\n\r\n', (record, readUs) => {
    const previousUs = lastRecordUs;
    lastRecordUs = readUs;
    if (record.charCodeAt(0) === 58 /* ':' */) {
      heartbeats.push({ readUs, gapUs: readUs - previousUs });
      return void (report.comments += 1);
    }
    report.events += 1;
    const type = classify(record, target.format);
    report.lastType = type;
    if (report.firstEventUs === undefined) {
      report.firstEventUs = readUs;
      markFirstEvent();
    }
    if (type !== textType) return;
    report.firstTextUs ??= readUs;
    const written = stampOf(record, 'ts=');
    if (written === undefined) return;
    report.latencyUs.push(readUs - written);
    const scheduled = stampOf(record, ' s=');
    if (scheduled === undefined) return;
    report.delayUs.push(readUs - scheduled);
    delayReadUs.push(readUs);
  });
  let request: ClientRequest | undefined;
  const done = new Promise<StreamReport>((resolve) => {
    const finish = (error?: string) => {
      if (report.endedUs !== 0) return;
      report.endedUs = sharedNowUs();
      if (error) report.error = error;
      markFirstEvent();
      resolve(report);
    };
    const url = new URL(target.url);
    request = httpRequest(
      {
        agent,
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: 'POST',
        headers: { ...target.headers, 'content-length': Buffer.byteLength(body) },
      },
      (response) => {
        report.status = response.statusCode ?? 0;
        response.on('data', (chunk: Buffer) => {
          report.chunks += 1;
          scanner.push(chunk, sharedNowUs());
        });
        response.on('end', () => finish());
        response.on('close', () => finish());
        response.on('error', (error) => finish(String(error)));
      },
    );
    request.on('error', (error) => finish(String(error)));
    request.end(body);
  });
  return {
    done,
    firstEvent,
    isEnded: () => report.endedUs !== 0,
    holdFigures: (sinceUs) => ({
      delayUs: report.delayUs.filter((_, index) => delayReadUs[index] >= sinceUs),
      heartbeatGapUs: heartbeats.filter((beat) => beat.readUs >= sinceUs).map((beat) => beat.gapUs),
    }),
    abort: () => request?.destroy(),
  };
}

let openStreams: OpenStream[] = [];

async function handle(command: ClientCommand): Promise<unknown> {
  switch (command.kind) {
    case 'run':
      return openStream(command.target).done;
    case 'sequential': {
      const reports: StreamReport[] = [];
      for (let index = 0; index < command.runs; index++) reports.push(await openStream(command.target).done);
      return reports;
    }
    case 'concurrent':
      return Promise.all(Array.from({ length: command.runs }, () => openStream(command.target).done));
    case 'open': {
      // In batches, each waiting for its first events: a thousand simultaneous connects would overflow the
      // listen backlog and measure SYN retries instead of the gateway.
      for (let opened = 0; opened < command.runs; opened += command.batch) {
        const batch = Array.from({ length: Math.min(command.batch, command.runs - opened) }, () =>
          openStream(command.target),
        );
        openStreams.push(...batch);
        await Promise.all(batch.map((stream) => stream.firstEvent));
      }
      return openStreams.length;
    }
    case 'open-within': {
      // As `open`, but a batch whose runs see no first event in time stops the opening (a relay that queues
      // runs it cannot take): the reply says how many were opened and how many started.
      for (let opened = 0; opened < command.runs; opened += command.batch) {
        const batch = Array.from({ length: Math.min(command.batch, command.runs - opened) }, () =>
          openStream(command.target),
        );
        openStreams.push(...batch);
        const isStarted = await Promise.race([
          Promise.all(batch.map((stream) => stream.firstEvent)).then(() => true),
          new Promise<boolean>((done) => setTimeout(() => done(false), command.firstEventTimeoutMs)),
        ]);
        if (!isStarted) break;
      }
      return { opened: openStreams.length, ended: openStreams.filter((stream) => stream.isEnded()).length };
    }
    case 'hold-figures': {
      const figures = openStreams.map((stream) => stream.holdFigures(command.sinceUs));
      return {
        open: openStreams.filter((stream) => !stream.isEnded()).length,
        starved: figures.filter((figure) => figure.delayUs.length === 0).length,
        delayUs: figures.flatMap((figure) => figure.delayUs),
        heartbeatGapUs: figures.flatMap((figure) => figure.heartbeatGapUs),
      };
    }
    case 'close-open': {
      for (const stream of openStreams) stream.abort();
      const reports = await Promise.all(openStreams.map((stream) => stream.done));
      openStreams = [];
      return reports.map(({ status, events, comments, lastType, error }) => ({
        status,
        events,
        comments,
        lastType,
        error,
      }));
    }
    case 'exit':
      setImmediate(() => process.exit(0));
      return null;
  }
}

process.on('message', (message: { seq: number; command: ClientCommand }) => {
  handle(message.command).then(
    (result) => process.send?.({ seq: message.seq, result } satisfies ClientReply),
    (error: unknown) => process.send?.({ seq: message.seq, error: String(error) } satisfies ClientReply),
  );
});
