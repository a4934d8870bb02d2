/** One instruction of a Dockerfile, continuation lines joined. */
export interface DockerInstruction {
  readonly keyword: string;
  readonly args: string;
}

export interface DockerStage {
  readonly name: string | undefined;
  /** The FROM image with global ARG defaults substituted, or the name of an earlier stage. */
  readonly from: string;
  readonly platform: string | undefined;
  readonly instructions: readonly DockerInstruction[];
}

export interface ParsedDockerfile {
  /** ARGs declared before the first FROM, with their defaults. */
  readonly globalArgs: Readonly<Record<string, string>>;
  readonly stages: readonly DockerStage[];
}

/** What a built image of one target is configured with (what `docker inspect` would show). */
export interface ImageConfig {
  /** The external image at the root of the FROM chain. */
  readonly baseImage: string;
  readonly user: string | undefined;
  readonly env: Readonly<Record<string, string>>;
  readonly exposedPorts: readonly string[];
  readonly volumes: readonly string[];
  readonly entrypoint: readonly string[] | undefined;
  readonly cmd: readonly string[] | undefined;
  readonly healthcheck: { readonly options: string; readonly command: readonly string[] } | undefined;
  /** Every RUN of the target's chain, in order. */
  readonly runs: readonly string[];
}

/** Joins `\` continuations and drops comments and blank lines. */
function logicalLines(text: string): string[] {
  const lines: string[] = [];
  let current = '';
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (line.startsWith('#') || (line === '' && current === '')) continue;
    if (line.endsWith('\\')) {
      current += `${line.slice(0, -1).trim()} `;
      continue;
    }
    lines.push((current + line).trim());
    current = '';
  }
  if (current.trim()) lines.push(current.trim());
  return lines.filter(Boolean);
}

function substitute(value: string, args: Readonly<Record<string, string>>): string {
  return value.replace(/\$\{?([A-Za-z_][A-Za-z0-9_]*)\}?/g, (whole, name: string) => args[name] ?? whole);
}

/** Parses FROM/ARG and keeps every other instruction of each stage as keyword + raw arguments. */
export function parseDockerfile(text: string): ParsedDockerfile {
  const globalArgs: Record<string, string> = {};
  const stages: {
    name: string | undefined;
    from: string;
    platform: string | undefined;
    instructions: DockerInstruction[];
  }[] = [];
  for (const line of logicalLines(text)) {
    const match = /^(\S+)\s*(.*)$/.exec(line);
    if (!match) continue;
    const keyword = match[1].toUpperCase();
    const args = match[2];
    if (keyword === 'FROM') {
      const from = /^(?:--platform=(\S+)\s+)?(\S+)(?:\s+AS\s+(\S+))?$/i.exec(args);
      if (!from) throw new Error(`unparsable FROM: ${args}`);
      stages.push({
        platform: from[1],
        from: substitute(from[2], globalArgs),
        name: from[3],
        instructions: [],
      });
    } else if (stages.length === 0) {
      if (keyword !== 'ARG') throw new Error(`${keyword} before the first FROM`);
      const [name, ...value] = args.split('=');
      globalArgs[name.trim()] = value.join('=').trim();
    } else {
      stages[stages.length - 1].instructions.push({ keyword, args });
    }
  }
  return { globalArgs, stages };
}

/** `["a", "b"]` (exec form) or a shell-form string run by /bin/sh -c. */
function commandOf(args: string): string[] {
  const trimmed = args.trim();
  return trimmed.startsWith('[') ? (JSON.parse(trimmed) as string[]) : ['/bin/sh', '-c', trimmed];
}

/** `ENV A=1 B="two words"` and the legacy `ENV A 1`. */
function envPairs(args: string): [string, string][] {
  if (!/^\S+=/.test(args)) {
    const [name, ...rest] = args.split(/\s+/);
    return [[name, rest.join(' ')]];
  }
  const pairs: [string, string][] = [];
  for (const match of args.matchAll(/([A-Za-z_][A-Za-z0-9_]*)=("(?:[^"\\]|\\.)*"|\S*)/g)) {
    const raw = match[2];
    pairs.push([match[1], raw.startsWith('"') ? (JSON.parse(raw) as string) : raw]);
  }
  return pairs;
}

/** The image configuration a `--target <name>` build ends with, following FROM <stage> inheritance. */
export function resolveTarget(dockerfile: ParsedDockerfile, target: string): ImageConfig {
  const stage = dockerfile.stages.find((s) => s.name === target);
  if (!stage) throw new Error(`no stage ${target}`);
  const parent = dockerfile.stages.find((s) => s.name !== undefined && s.name === stage.from);
  const inherited: ImageConfig = parent
    ? resolveTarget(dockerfile, stage.from)
    : {
        baseImage: stage.from,
        user: undefined,
        env: {},
        exposedPorts: [],
        volumes: [],
        entrypoint: undefined,
        cmd: undefined,
        healthcheck: undefined,
        runs: [],
      };
  let { user, entrypoint, cmd, healthcheck } = inherited;
  const env: Record<string, string> = { ...inherited.env };
  const exposedPorts = [...inherited.exposedPorts];
  const volumes = [...inherited.volumes];
  const runs = [...inherited.runs];
  for (const { keyword, args } of stage.instructions) {
    if (keyword === 'USER') user = args.trim();
    else if (keyword === 'ENV')
      for (const [name, value] of envPairs(args)) env[name] = substitute(value, env);
    else if (keyword === 'EXPOSE') exposedPorts.push(...args.split(/\s+/));
    else if (keyword === 'VOLUME')
      volumes.push(...(args.startsWith('[') ? commandOf(args) : args.split(/\s+/)));
    else if (keyword === 'ENTRYPOINT') entrypoint = commandOf(args);
    else if (keyword === 'CMD') cmd = commandOf(args);
    else if (keyword === 'RUN') runs.push(args);
    else if (keyword === 'HEALTHCHECK') {
      const match = /^(.*?)\bCMD\s+(.*)$/s.exec(args);
      healthcheck = match ? { options: match[1].trim(), command: commandOf(match[2]) } : undefined;
    }
  }
  return {
    baseImage: inherited.baseImage,
    user,
    env,
    exposedPorts,
    volumes,
    entrypoint,
    cmd,
    healthcheck,
    runs,
  };
}
