import type { Measurer } from "./measure";
import type { TextStyle } from "./theme";

/**
 * Greedy line breaking of styled runs: breaks at spaces, "\n" forces a
 * break, a word wider than the line is cut between characters. Consecutive
 * pieces that share a style object become one fragment (one text operator).
 */

export interface Run {
  /** Cleaned text (Measurer.clean); "\n" is a hard line break. */
  text: string;
  style: TextStyle;
}

export interface Fragment {
  text: string;
  style: TextStyle;
  /** Offset from the line's left edge. */
  x: number;
  width: number;
}

export interface Line {
  fragments: Fragment[];
  width: number;
  /** Largest font size on the line (line height = size × leading). */
  size: number;
}

interface Piece {
  text: string;
  style: TextStyle;
  width: number;
}

const SEPARATORS = /(\n| +)/;

export function wrapRuns(runs: Run[], width: number, m: Measurer, emptySize: number): Line[] {
  // Tolerance for rounding: text measured to exactly the column width fits it.
  const maxWidth = width + 0.01;
  const lines: Line[] = [];
  let line: Piece[] = [];
  let lineWidth = 0;
  let word: Piece[] = [];
  let wordWidth = 0;
  let space: Piece | null = null;

  const pushLine = () => {
    lines.push(toLine(line, lineWidth, emptySize));
    line = [];
    lineWidth = 0;
    space = null;
  };

  const cutWord = () => {
    for (const piece of word) {
      const { face, size } = piece.style;
      let start = 0;
      let acc = 0;
      for (let i = 0; i < piece.text.length; i++) {
        const cp = piece.text.codePointAt(i)!;
        const step = cp > 0xffff ? 2 : 1;
        const w = m.advance(face, cp) * size;
        if (lineWidth + acc + w > maxWidth && (line.length > 0 || acc > 0)) {
          if (i > start) line.push({ text: piece.text.slice(start, i), style: piece.style, width: acc });
          lineWidth += acc;
          pushLine();
          start = i;
          acc = 0;
        }
        acc += w;
        if (step === 2) i++;
      }
      if (piece.text.length > start) {
        line.push({ text: piece.text.slice(start), style: piece.style, width: acc });
        lineWidth += acc;
      }
    }
  };

  const flushWord = () => {
    if (word.length === 0) return;
    if (line.length > 0 && lineWidth + (space?.width ?? 0) + wordWidth > maxWidth) pushLine();
    if (line.length > 0 && space) {
      line.push(space);
      lineWidth += space.width;
    }
    space = null;
    if (wordWidth > maxWidth) cutWord();
    else {
      for (const piece of word) line.push(piece);
      lineWidth += wordWidth;
    }
    word = [];
    wordWidth = 0;
  };

  for (const run of runs) {
    const { style } = run;
    const parts = run.text.split(SEPARATORS);
    for (const part of parts) {
      if (part === "") continue;
      if (part === "\n") {
        flushWord();
        pushLine();
      } else if (part.charCodeAt(0) === 32) {
        flushWord();
        if (!space && line.length > 0) space = { text: " ", style, width: m.width(" ", style.face, style.size) };
      } else {
        const width = m.width(part, style.face, style.size);
        word.push({ text: part, style, width });
        wordWidth += width;
      }
    }
  }
  flushWord();
  if (line.length > 0 || lines.length === 0) pushLine();
  return lines;
}

function toLine(pieces: Piece[], width: number, emptySize: number): Line {
  const fragments: Fragment[] = [];
  let x = 0;
  let size = pieces.length === 0 ? emptySize : 0;
  let last: Fragment | undefined;
  for (const piece of pieces) {
    if (piece.style.size > size) size = piece.style.size;
    if (last && last.style === piece.style) {
      last.text += piece.text;
      last.width += piece.width;
    } else {
      last = { text: piece.text, style: piece.style, x, width: piece.width };
      fragments.push(last);
    }
    x += piece.width;
  }
  return { fragments, width, size };
}

/** Preformatted text: spaces kept, a line wider than `maxWidth` cut between characters (code blocks). */
export function hardWrap(text: string, face: TextStyle["face"], size: number, width: number, m: Measurer): string[] {
  const maxWidth = width + 0.01;
  const out: string[] = [];
  for (const source of text.split("\n")) {
    let start = 0;
    let acc = 0;
    for (let i = 0; i < source.length; i++) {
      const cp = source.codePointAt(i)!;
      const w = m.advance(face, cp) * size;
      if (acc + w > maxWidth && i > start) {
        out.push(source.slice(start, i));
        start = i;
        acc = 0;
      }
      acc += w;
      if (cp > 0xffff) i++;
    }
    out.push(source.slice(start));
  }
  return out;
}
