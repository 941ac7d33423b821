import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Machine } from './machine.js';

/** One measured figure, printed beside its anchor (what it is compared with) and its target. */
export interface Figure {
  section: string;
  name: string;
  value: string;
  anchor?: string | undefined;
  ratio?: string | undefined;
  target?: string | undefined;
  /** undefined: reported, no target. */
  met?: boolean | undefined;
  /** Says which part of a two-part target missed, e.g. "p95 met, ratio missed". */
  verdict?: string | undefined;
}

export class Report {
  readonly figures: Figure[] = [];
  readonly notes: string[] = [];

  add(f: Figure) {
    this.figures.push(f);
    const mark = f.met === undefined ? '' : `  ${f.met ? 'met' : 'MISSED'}${f.verdict ? ` (${f.verdict})` : ''}`;
    const parts = [
      f.value,
      f.anchor && `(${f.anchor})`,
      f.ratio && `ratio ${f.ratio}`,
      f.target && `target ${f.target}`,
    ].filter(Boolean);
    console.log(`  [${f.section}] ${f.name}: ${parts.join('  ')}${mark}`);
  }

  note(text: string) {
    this.notes.push(text);
    console.log(`  note: ${text}`);
  }

  /** A plain text table for stdout. */
  table(): string {
    const head = ['section', 'figure', 'value', 'anchor', 'ratio', 'target', 'result'];
    const rows = this.figures.map((f) => [
      f.section,
      f.name,
      f.value,
      f.anchor ?? '',
      f.ratio ?? '',
      f.target ?? '',
      result(f),
    ]);
    const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => [...r[i]!].length)));
    const line = (cells: string[]) => cells.map((c, i) => c + ' '.repeat(widths[i]! - [...c].length)).join(' | ');
    return [line(head), widths.map((w) => '-'.repeat(w)).join('-+-'), ...rows.map(line)].join('\n');
  }

  markdown(title: string, machine: Machine, run: Record<string, string>): string {
    const esc = (s: string) => s.replace(/\|/g, '\\|');
    const met = this.figures.filter((f) => f.met === true).length;
    const missed = this.figures.filter((f) => f.met === false);
    const out = [
      `# ${title}`,
      '',
      '## Machine',
      '',
      '| | |',
      '|---|---|',
      ...Object.entries({ ...machine, ...run }).map(([k, v]) => `| ${k} | ${esc(String(v))} |`),
      '',
      `## Summary: ${met} targets met, ${missed.length} missed`,
      '',
      ...(missed.length
        ? missed.map(
            (f) =>
              `- missed${f.verdict ? ` (${f.verdict})` : ''}: [${f.section}] ${f.name} = ${f.value} (target ${f.target})`,
          )
        : ['- every target met']),
      '',
      '## Figures',
      '',
      '| section | figure | value | anchor | ratio | target | result |',
      '|---|---|---|---|---|---|---|',
      ...this.figures.map(
        (f) =>
          `| ${[f.section, f.name, f.value, f.anchor ?? '', f.ratio ?? '', f.target ?? '', result(f)].map(esc).join(' | ')} |`,
      ),
      '',
    ];
    if (this.notes.length) out.push('## Notes', '', ...this.notes.map((n) => `- ${n}`), '');
    return out.join('\n');
  }

  write(dir: string, file: string, text: string): string {
    mkdirSync(dir, { recursive: true });
    const full = path.join(dir, file);
    writeFileSync(full, text);
    return full;
  }
}

const result = (f: Figure) =>
  f.met === undefined ? '' : `${f.met ? 'met' : 'missed'}${f.verdict ? ` (${f.verdict})` : ''}`;
