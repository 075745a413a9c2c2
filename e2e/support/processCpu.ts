/**
 * The CPU time a launched Chromium takes, from /proc: its browser process (found by the profile folder
 * in its command line) and every process under it (zygotes, renderers with their audio threads, the
 * audio and network services). Linux only, as the journeys' machine.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';

let ticksPerSecond: number | null = null;

function processes(): Array<{ pid: number; ppid: number; ticks: number; cmdline: string }> {
  const all = [];
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${name}/stat`, 'utf8');
      // the fields after the command's name, which may hold spaces and parentheses
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const cmdline = fs.readFileSync(`/proc/${name}/cmdline`, 'utf8').replace(/\0/g, ' ');
      all.push({ pid: Number(name), ppid: Number(fields[1]), ticks: Number(fields[11]) + Number(fields[12]), cmdline });
    } catch {
      // the process ended while being read
    }
  }
  return all;
}

/** CPU seconds (user + system) used so far by the Chromium whose command line holds `profileMarker`, and its children. */
export function browserCpuSeconds(profileMarker: string): number {
  ticksPerSecond ??= Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  const all = processes();
  const inTree = new Set(all.filter((p) => p.cmdline.includes(`--user-data-dir=`) && p.cmdline.includes(profileMarker) && !p.cmdline.includes('--type=')).map((p) => p.pid));
  if (!inTree.size) throw new Error(`no Chromium with ${profileMarker} in its command line`);
  for (let grew = true; grew; ) {
    grew = false;
    for (const p of all) {
      if (!inTree.has(p.pid) && inTree.has(p.ppid)) {
        inTree.add(p.pid);
        grew = true;
      }
    }
  }
  return all.filter((p) => inTree.has(p.pid)).reduce((sum, p) => sum + p.ticks, 0) / ticksPerSecond;
}
