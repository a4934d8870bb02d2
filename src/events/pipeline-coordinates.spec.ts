import { pipelineMessageId, pipelineStepOf, stepNameOfKey } from './pipeline-coordinates';

describe('pipelineMessageId', () => {
  it.each([
    { name: 'no scope, no coordinates', envelope: {}, id: 'pipeline-message:run-1:pipeline' },
    { name: 'scope only', envelope: { scope: 'pipeline' }, id: 'pipeline-message:run-1:pipeline' },
    {
      name: 'candidate runId before the shared candidate step id',
      envelope: {
        scope: 'candidate_step',
        candidate: { runId: 'cand-a' },
        candidateStep: { id: 'template' },
      },
      id: 'pipeline-message:run-1:candidate_step:cand-a:template',
    },
    {
      name: 'runId preferred over id; repeated coordinates once',
      envelope: {
        scope: 's',
        candidate: { runId: 'x', id: 'y' },
        candidateStep: { id: 'x' },
        step: { id: 'top' },
      },
      id: 'pipeline-message:run-1:s:x:top',
    },
    {
      name: 'non-object and empty coordinates are skipped',
      envelope: { scope: '', candidate: 'c', candidateStep: { runId: '' }, step: { id: 'top' } },
      id: 'pipeline-message:run-1:pipeline:top',
    },
  ])('$name', ({ envelope, id }) => expect(pipelineMessageId(envelope, 'run-1')).toBe(id));
});

describe('pipelineStepOf', () => {
  it.each([
    { name: 'no step', envelope: { candidate: { id: 'c' } }, step: undefined },
    {
      name: 'a plain step',
      envelope: { step: { id: 'prepare' } },
      step: { key: 'step:prepare', stepName: 'prepare' },
    },
    {
      name: 'candidateStep wins over step',
      envelope: { candidateStep: { id: 'inner' }, step: { id: 'outer' } },
      step: { key: 'step:inner', stepName: 'inner' },
    },
    {
      name: 'an empty candidateStep falls through to step',
      envelope: { candidateStep: {}, step: { id: 'outer' } },
      step: { key: 'step:outer', stepName: 'outer' },
    },
    {
      name: 'candidate id, then subPipelineId, then runId; the full key is the name',
      envelope: { candidate: { subPipelineId: 'sub', runId: 'run' }, candidateStep: { id: 'gen' } },
      step: { key: 'candidate:sub:gen', stepName: 'candidate:sub:gen' },
    },
    {
      name: 'a candidate without identity keys a plain step',
      envelope: { candidate: { id: '' }, candidateStep: { id: 'gen' } },
      step: { key: 'step:gen', stepName: 'gen' },
    },
  ])('$name', ({ envelope, step }) => expect(pipelineStepOf(envelope)).toEqual(step));

  it.each([
    { key: 'step:prepare', name: 'prepare' },
    { key: 'candidate:c:gen', name: 'candidate:c:gen' },
  ])('stepNameOfKey($key) = $name', ({ key, name }) => expect(stepNameOfKey(key)).toBe(name));
});
