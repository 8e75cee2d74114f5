/**
 * Evidence: POSIX Shell Command Language 2.13 (pattern matching notation).
 */
import type { MemFs } from '../device/fs.js';

/** A piece of an expanded word: quoted text never acts as a pattern. */
export interface Segment {
  s: string;
  q: boolean;
}

const GLOB_CHARS = /[*?[]/;

/** True when an unquoted part of the word holds a pattern character. */
export function hasGlob(segments: readonly Segment[]): boolean {
  return segments.some((seg) => !seg.q && GLOB_CHARS.test(seg.s));
}

/** A regular expression source for a pattern; quoted text matches literally. */
export function patternSource(segments: readonly Segment[]): string {
  let src = '';
  for (const seg of segments) {
    if (seg.q) {
      src += escapeRegex(seg.s);
      continue;
    }
    for (let i = 0; i < seg.s.length; i++) {
      const c = seg.s.charAt(i);
      if (c === '*') {
        src += '.*';
      } else if (c === '?') {
        src += '.';
      } else if (c === '[') {
        const end = seg.s.indexOf(']', i + 2);
        if (end < 0) {
          src += '\\[';
        } else {
          let body = seg.s.slice(i + 1, end);
          if (body.startsWith('!')) {
            body = '^' + body.slice(1);
          }
          src += '[' + body.replace(/\\/g, '\\\\') + ']';
          i = end;
        }
      } else {
        src += escapeRegex(c);
      }
    }
  }
  return src;
}

function escapeRegex(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

/** Shell pattern matching of a whole string (`case`, `${x#pat}`). */
export function matchPattern(segments: readonly Segment[], text: string): boolean {
  return new RegExp(`^${patternSource(segments)}$`, 's').test(text);
}

/**
 * Pathname expansion of one field against the device's file system; the sorted matches, or null
 * when nothing matches (the word then stays as it was, as in sh).
 */
export function expandGlob(fs: MemFs, cwd: string, segments: readonly Segment[]): string[] | null {
  // Split the pattern into path components while keeping the quoted/unquoted marks.
  const comps: Segment[][] = [[]];
  for (const seg of segments) {
    const pieces = seg.s.split('/');
    pieces.forEach((piece, idx) => {
      if (idx > 0) {
        comps.push([]);
      }
      if (piece !== '') {
        (comps[comps.length - 1] as Segment[]).push({ s: piece, q: seg.q });
      }
    });
  }
  const absolute = (segments[0]?.s ?? '').startsWith('/');
  let bases: string[] = [absolute ? '/' : ''];
  for (let ci = 0; ci < comps.length; ci++) {
    const comp = comps[ci] as Segment[];
    if (comp.length === 0) {
      continue;
    }
    const next: string[] = [];
    for (const base of bases) {
      const join = (name: string): string =>
        base === '' ? name : base.endsWith('/') ? base + name : `${base}/${name}`;
      if (!hasGlob(comp)) {
        next.push(join(comp.map((c) => c.s).join('')));
        continue;
      }
      const dirPath = base === '' ? cwd : base;
      let names: string[];
      try {
        names = fs.entries(dirPath).map((e) => e.name);
      } catch {
        continue;
      }
      const re = new RegExp(`^${patternSource(comp)}$`, 's');
      const dotOk = (comp[0]?.s ?? '').startsWith('.');
      for (const name of names) {
        if ((dotOk || !name.startsWith('.')) && re.test(name)) {
          next.push(join(name));
        }
      }
    }
    bases = next;
    if (bases.length === 0) {
      return null;
    }
  }
  const existing = bases.filter((p) => fs.tryResolve(p.startsWith('/') ? p : `${cwd}/${p}`, false) !== null);
  return existing.length === 0 ? null : existing.sort();
}
