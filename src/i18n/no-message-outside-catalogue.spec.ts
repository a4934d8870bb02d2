import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import * as ts from 'typescript';
import { EN } from './catalogue/en';

/**
 * "No message is built outside the catalogue" (docs/architecture.md#decisions): every user-facing text
 * reaches a client as a catalogue key rendered in the request's language. The check reads the source
 * with the TypeScript parser and looks at the places where a client-visible message is made:
 *
 * - `new AguiError(code, key)`: `key` is a catalogue key literal, or an expression the compiler types as
 *   MessageKey (a variable, a property, a conditional of those, a call of a function declared to return
 *   MessageKey), never built text;
 * - `.render(key, …)`: a literal key is a catalogue key;
 * - `runError(code, message, …)`: `message` is a `.render(…)` call, or a variable initialised with one;
 * - an error-shaped object (`{code, message}`, which is what the JSON envelope, the SSE RUN_ERROR frame and
 *   the WebSocket frame are built from): `message` is not a literal or a template;
 * - Nest's HTTP exceptions (`new XxxException(…)`) get no text (Nest would send it to the client);
 * - a response write (`.json/.send/.end/.write`) holds no sentence literal.
 *
 * Skipped: the catalogue itself, specs, and src/demo-kernel (the demo agent's own output, which is
 * upstream text the gateway passes through untranslated, docs/behaviour/http.md#languages).
 */

type Rule =
  'aguiErrorKey' | 'renderKey' | 'runErrorMessage' | 'errorObjectMessage' | 'httpException' | 'responseText';

interface Finding {
  readonly rule: Rule;
  readonly file: string;
  readonly line: number;
  readonly text: string;
}

interface Census {
  readonly findings: Finding[];
  /** How many call sites each rule inspected: proves the scan saw the code it is meant to check. */
  readonly inspected: Record<Rule, number>;
}

const KEYS: ReadonlySet<string> = new Set(Object.keys(EN));
const RESPONSE_WRITERS = new Set(['json', 'send', 'end', 'write']);
/** Two words in a row: a sentence, as opposed to a protocol token such as `data: ` or `\n\n`. */
const SENTENCE = /[A-Za-z]{2,}\s+[A-Za-z]{2,}/;

function isTextLiteral(node: ts.Node): boolean {
  return (
    ts.isStringLiteral(node) ||
    ts.isNoSubstitutionTemplateLiteral(node) ||
    ts.isTemplateExpression(node) ||
    (ts.isBinaryExpression(node) && node.operatorToken.kind === ts.SyntaxKind.PlusToken)
  );
}

/**
 * A key expression the compiler checks as MessageKey: a literal key, a variable, a property, a ternary of
 * those, or a call of a function of the same file declared to return MessageKey.
 */
function isKeyExpression(node: ts.Expression, keyFunctions: ReadonlySet<string>): boolean {
  if (ts.isParenthesizedExpression(node)) return isKeyExpression(node.expression, keyFunctions);
  if (ts.isStringLiteral(node)) return KEYS.has(node.text);
  if (ts.isConditionalExpression(node))
    return isKeyExpression(node.whenTrue, keyFunctions) && isKeyExpression(node.whenFalse, keyFunctions);
  if (ts.isCallExpression(node))
    return ts.isIdentifier(node.expression) && keyFunctions.has(node.expression.text);
  return ts.isIdentifier(node) || ts.isPropertyAccessExpression(node) || ts.isElementAccessExpression(node);
}

function isRenderCall(node: ts.Node): boolean {
  return (
    ts.isCallExpression(node) &&
    ts.isPropertyAccessExpression(node.expression) &&
    node.expression.name.text === 'render'
  );
}

function calleeName(call: ts.CallExpression | ts.NewExpression): string | undefined {
  const callee = call.expression;
  if (ts.isIdentifier(callee)) return callee.text;
  if (ts.isPropertyAccessExpression(callee)) return callee.name.text;
  return undefined;
}

function hasSentenceLiteral(node: ts.Node): boolean {
  if ((ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) && SENTENCE.test(node.text))
    return true;
  if (ts.isTemplateExpression(node)) {
    const parts = [node.head.text, ...node.templateSpans.map((span) => span.literal.text)];
    if (parts.some((part) => SENTENCE.test(part))) return true;
  }
  return node.getChildren().some(hasSentenceLiteral);
}

function propertyName(property: ts.ObjectLiteralElementLike): string | undefined {
  const name = property.name;
  return name && (ts.isIdentifier(name) || ts.isStringLiteral(name)) ? name.text : undefined;
}

export function scanSource(file: string, source: string): Census {
  const sourceFile = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true);
  const findings: Finding[] = [];
  const inspected: Record<Rule, number> = {
    aguiErrorKey: 0,
    renderKey: 0,
    runErrorMessage: 0,
    errorObjectMessage: 0,
    httpException: 0,
    responseText: 0,
  };
  const report = (rule: Rule, node: ts.Node) =>
    findings.push({
      rule,
      file,
      line: sourceFile.getLineAndCharacterOfPosition(node.getStart()).line + 1,
      text: node.getText().slice(0, 120),
    });
  // Variables initialised with a render call, so `const message = catalogue.render(…); runError(c, message)` passes.
  const renderedVariables = new Set<string>();
  const notRenderedVariables = new Set<string>();
  const keyFunctions = new Set<string>();
  const collect = (node: ts.Node): void => {
    if (ts.isFunctionDeclaration(node) && node.name && node.type?.getText() === 'MessageKey') {
      keyFunctions.add(node.name.text);
    }
    if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name)) {
      (node.initializer && isRenderCall(node.initializer) ? renderedVariables : notRenderedVariables).add(
        node.name.text,
      );
    }
    node.forEachChild(collect);
  };
  collect(sourceFile);

  const visit = (node: ts.Node): void => {
    if (ts.isNewExpression(node)) {
      const name = calleeName(node);
      const args = node.arguments ?? ts.factory.createNodeArray<ts.Expression>();
      if (name === 'AguiError') {
        inspected.aguiErrorKey += 1;
        if (args.length < 2 || !isKeyExpression(args[1], keyFunctions)) report('aguiErrorKey', node);
      } else if (name && /Exception$/.test(name)) {
        inspected.httpException += 1;
        if (args.some((arg) => isTextLiteral(arg) || hasSentenceLiteral(arg))) report('httpException', node);
      }
    }
    if (ts.isCallExpression(node)) {
      const name = calleeName(node);
      if (name === 'render' && ts.isPropertyAccessExpression(node.expression)) {
        inspected.renderKey += 1;
        const key = node.arguments[0];
        if (!key || (isTextLiteral(key) && !(ts.isStringLiteral(key) && KEYS.has(key.text))))
          report('renderKey', node);
      } else if (name === 'runError') {
        inspected.runErrorMessage += 1;
        const message = node.arguments[1];
        const rendered =
          message !== undefined &&
          (isRenderCall(message) ||
            (ts.isIdentifier(message) &&
              renderedVariables.has(message.text) &&
              !notRenderedVariables.has(message.text)));
        if (!rendered) report('runErrorMessage', node);
      } else if (name && RESPONSE_WRITERS.has(name) && ts.isPropertyAccessExpression(node.expression)) {
        inspected.responseText += 1;
        if (node.arguments.some(hasSentenceLiteral)) report('responseText', node);
      }
    }
    if (ts.isObjectLiteralExpression(node)) {
      const names = node.properties.map(propertyName);
      const message = node.properties.find((p) => propertyName(p) === 'message');
      if (message && names.includes('code')) {
        inspected.errorObjectMessage += 1;
        if (ts.isPropertyAssignment(message) && isTextLiteral(message.initializer))
          report('errorObjectMessage', message);
      }
    }
    node.forEachChild(visit);
  };
  visit(sourceFile);
  return { findings, inspected };
}

const SRC = path.resolve(__dirname, '..');
const SKIPPED = [path.join(SRC, 'i18n', 'catalogue'), path.join(SRC, 'demo-kernel')];

function sourceFiles(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(directory, entry.name);
    if (entry.isDirectory()) return SKIPPED.includes(full) ? [] : sourceFiles(full);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.spec.ts') ? [full] : [];
  });
}

describe('no user-facing message is built outside the catalogue', () => {
  const files = sourceFiles(SRC);
  const censuses = files.map((file) => scanSource(path.relative(SRC, file), readFileSync(file, 'utf8')));
  const total = (rule: Rule) => censuses.reduce((sum, census) => sum + census.inspected[rule], 0);

  it('finds no message built outside the catalogue in src/', () => {
    expect(censuses.flatMap((census) => census.findings)).toEqual([]);
  });

  it('inspected the places where messages are made (the scan is not silently empty)', () => {
    expect(files.length).toBeGreaterThan(40);
    expect(files.some((file) => file.includes(`${path.sep}demo-kernel${path.sep}`))).toBe(false);
    expect(total('aguiErrorKey')).toBeGreaterThanOrEqual(15);
    expect(total('renderKey')).toBeGreaterThanOrEqual(3);
    expect(total('runErrorMessage')).toBeGreaterThanOrEqual(1);
    expect(total('errorObjectMessage')).toBeGreaterThanOrEqual(3);
    expect(total('responseText')).toBeGreaterThanOrEqual(2);
  });

  it.each([
    {
      name: 'an AguiError with a non-key literal',
      rule: 'aguiErrorKey',
      code: `new AguiError(C.X, 'Bad thing.');`,
    },
    { name: 'an AguiError with a template', rule: 'aguiErrorKey', code: 'new AguiError(C.X, `bad ${x}`);' },
    {
      name: 'an AguiError with built text',
      rule: 'aguiErrorKey',
      code: `new AguiError(C.X, 'un' + 'known');`,
    },
    { name: 'an AguiError without a key', rule: 'aguiErrorKey', code: 'new AguiError(C.X);' },
    {
      name: 'an AguiError with a function that returns text',
      rule: 'aguiErrorKey',
      code: 'function describe(e: Error): string { return e.message; } new AguiError(C.X, describe(e));',
    },
    { name: 'a render of an unknown key', rule: 'renderKey', code: `catalogue.render('noSuchKey', 'en');` },
    {
      name: 'a RUN_ERROR with literal text',
      rule: 'runErrorMessage',
      code: `runError('X', 'It failed', u, 1);`,
    },
    {
      name: 'a RUN_ERROR with upstream text',
      rule: 'runErrorMessage',
      code: 'runError(c, error.message, u, 1);',
    },
    {
      name: 'a RUN_ERROR with a variable not rendered',
      rule: 'runErrorMessage',
      code: 'const message = `failed: ${e}`; runError(c, message, u, 1);',
    },
    {
      name: 'an error envelope with literal text',
      rule: 'errorObjectMessage',
      code: `const body = { error: { code: 'X', message: 'Something broke' } };`,
    },
    {
      name: 'an SSE frame with a template message',
      rule: 'errorObjectMessage',
      code: 'JSON.stringify({ type: "RUN_ERROR", code, message: `No ${x}` });',
    },
    {
      name: 'a Nest exception with text',
      rule: 'httpException',
      code: `throw new BadRequestException('Nope');`,
    },
    {
      name: 'a sentence written to the response',
      rule: 'responseText',
      code: `response.end('Service is down');`,
    },
  ] as const)('catches $name', ({ rule, code }) => {
    const { findings } = scanSource('sample.ts', code);
    expect(findings.map((finding) => finding.rule)).toEqual([rule]);
  });

  it.each([
    { name: 'a catalogue key', code: `new AguiError(ErrorCode.X, 'threadBusy');` },
    { name: 'a typed key variable', code: 'new AguiError(ErrorCode.X, limits.tooLargeKey, { cause });' },
    { name: 'a ternary of keys', code: `new AguiError(c, ok ? 'imageInvalid' : key);` },
    {
      name: 'a function declared to return a key',
      code: `function keyOf(s: S): MessageKey { return 'threadBusy'; } new AguiError(c, keyOf(s));`,
    },
    {
      name: 'a rendered RUN_ERROR',
      code: 'runError(code, this.deps.catalogue.render(key, lang), usage, now);',
    },
    {
      name: 'a RUN_ERROR from a rendered variable',
      code: 'const message = catalogue.render(key, lang); runError(code, message, usage, now);',
    },
    {
      name: 'an envelope from rendered parts',
      code: 'response.status(s).json({ error: { code, message } });',
    },
    { name: 'an SSE data frame', code: 'response.end(`data: ${frame}\\n\\n`);' },
    { name: 'a log line', code: `logger.log({ msg: 'run finished', code: 'X' });` },
  ])('accepts $name', ({ code }) => {
    expect(scanSource('sample.ts', code).findings).toEqual([]);
  });
});
