/**
 * The text of each line of a Markdown document outside its fenced blocks and code spans: where
 * text a target chose must never be. An unclosed fence leaves `unclosed` true.
 */
export function outsideCode(md: string): { lines: string[]; unclosed: boolean } {
  const lines: string[] = [];
  let fence: string | undefined;
  for (const line of md.split('\n')) {
    const opens = /^(`{3,})/.exec(line)?.[1];
    if (fence !== undefined) {
      if (line === fence) fence = undefined;
      continue;
    }
    if (opens !== undefined) {
      fence = opens;
      continue;
    }
    // A code span: a backtick run, then text, then a run of the same length (CommonMark).
    lines.push(line.replace(/(?<!`)(`+)(?!`)[\s\S]*?(?<!`)\1(?!`)/g, ''));
  }
  return { lines, unclosed: fence !== undefined };
}
