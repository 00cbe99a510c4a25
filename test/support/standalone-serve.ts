import { spawn, type ChildProcess } from 'node:child_process';

export interface Served {
  child: ChildProcess;
  /** What serve printed up to `Ctrl-C stops the server.` */
  printed: string;
  baseUrl: string;
  /** The demo tokens of its export lines, by variable. */
  tokens: Record<string, string>;
  /** The run command it printed after `Then: `. */
  then: string;
}

/**
 * Starts `serve` as a user would (the CLI of a clone, or npx in a project) and reads what it
 * prints. Detached: its process group is the caller's to end (`process.kill(-child.pid)`).
 */
export async function serveStandalone(command: string, args: string[], options: { cwd: string; env?: NodeJS.ProcessEnv; timeoutMs?: number }): Promise<Served> {
  const child = spawn(command, args, { cwd: options.cwd, env: options.env ?? process.env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let printed = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve printed no base_url: ${printed}`)), options.timeoutMs ?? 20_000);
    child.stdout!.on('data', (d: Buffer) => {
      printed += d.toString();
      if (printed.includes('Ctrl-C')) {
        clearTimeout(timer);
        resolve();
      }
    });
  });
  const tokens: Record<string, string> = {};
  for (const m of printed.matchAll(/export (\w+)=(\S+)/g)) tokens[m[1]!] = m[2]!;
  return { child, printed, baseUrl: /base_url\s+(\S+)/.exec(printed)![1]!, tokens, then: /^Then: (.*)$/m.exec(printed)![1]! };
}

/** Ends serve and whatever started it (npx, its shell). */
export function stopServe(served: Served | undefined): void {
  if (served?.child.pid === undefined) return;
  try {
    process.kill(-served.child.pid, 'SIGTERM');
  } catch {
    // Gone already.
  }
}
