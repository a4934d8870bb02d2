import * as fs from 'node:fs';
import * as path from 'node:path';

const REPO_ROOT = path.resolve(__dirname, '..', '..');

/** The project's own Markdown: the README, CONTRIBUTING, docs/ and the chart's README. */
function markdownFiles(): string[] {
  const docs = fs
    .readdirSync(path.join(REPO_ROOT, 'docs'), { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.md'))
    .map((file) => path.join('docs', file));
  return ['README.md', 'CONTRIBUTING.md', 'helm/agui-a2a-gateway/README.md', ...docs];
}

const withoutCode = (text: string) => text.replace(/```[\s\S]*?```/g, '');

/** GitHub's heading anchors: lower case, punctuation dropped, spaces as hyphens. */
function anchorsOf(file: string): Set<string> {
  const headings = withoutCode(fs.readFileSync(file, 'utf8')).matchAll(/^#{1,6} (.+)$/gm);
  return new Set(
    [...headings].map(([, title]) =>
      title
        .trim()
        .toLowerCase()
        .replace(/[^\p{L}\p{N}_\- ]/gu, '')
        .replace(/ /g, '-'),
    ),
  );
}

/** Every relative link of `file` whose file or heading does not exist. */
function brokenLinks(file: string): string[] {
  const text = withoutCode(fs.readFileSync(path.join(REPO_ROOT, file), 'utf8'));
  return [...text.matchAll(/\]\(([^)\s]+)\)/g)]
    .map(([, target]) => target)
    .filter((target) => !/^(https?:|mailto:)/.test(target))
    .filter((target) => {
      const [linked, anchor] = target.split('#');
      const resolved = linked
        ? path.resolve(path.dirname(path.join(REPO_ROOT, file)), linked)
        : path.join(REPO_ROOT, file);
      if (!fs.existsSync(resolved)) return true;
      return anchor !== undefined && resolved.endsWith('.md') && !anchorsOf(resolved).has(anchor);
    })
    .map((target) => `${file}: ${target}`);
}

describe('the documentation', () => {
  it('the README stays the user view: at most 300 lines', () => {
    const lines = fs.readFileSync(path.join(REPO_ROOT, 'README.md'), 'utf8').split('\n').length;
    expect(lines).toBeLessThanOrEqual(300);
  });

  it('every relative link of the README, CONTRIBUTING and docs/ reaches an existing file and heading', () => {
    const files = markdownFiles();
    expect(files.length).toBeGreaterThan(15);
    expect(files.flatMap(brokenLinks)).toEqual([]);
  });

  it('the README links each page that holds what moved out of it', () => {
    const readme = fs.readFileSync(path.join(REPO_ROOT, 'README.md'), 'utf8');
    for (const page of ['clients', 'operations', 'deployment', 'extending', 'development']) {
      expect(readme).toContain(`(docs/${page}.md)`);
    }
  });
});
