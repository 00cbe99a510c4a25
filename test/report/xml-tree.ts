/**
 * A strict, minimal XML 1.0 reader for the report tests: elements, attributes, text, the five
 * predefined entities and character references. It throws on anything not well-formed that
 * junit.xml could plausibly contain (unbalanced tags, a bare `<` or `&`, an unquoted or
 * duplicated attribute, a character XML 1.0 forbids), so that a test can prove the file parses.
 */
export interface XmlElement {
  name: string;
  attributes: Record<string, string>;
  children: XmlElement[];
  text: string;
}

const NAME = /^[A-Za-z_:][-A-Za-z0-9_:.]*/;
const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function isXmlChar(code: number): boolean {
  return code === 0x9 || code === 0xa || code === 0xd || (code >= 0x20 && code <= 0xd7ff) || (code >= 0xe000 && code <= 0xfffd) || (code >= 0x10000 && code <= 0x10ffff);
}

function decode(raw: string, where: number): string {
  if (raw.includes('<')) throw new Error(`'<' in character data at ${where}`);
  return raw.replace(/&([^;]*);?/g, (whole, ref: string) => {
    if (!whole.endsWith(';')) throw new Error(`unterminated reference '${whole}' at ${where}`);
    if (ref.startsWith('#x')) return String.fromCodePoint(Number.parseInt(ref.slice(2), 16));
    if (ref.startsWith('#')) return String.fromCodePoint(Number.parseInt(ref.slice(1), 10));
    const e = ENTITIES[ref];
    if (e === undefined) throw new Error(`unknown entity '&${ref};' at ${where}`);
    return e;
  });
}

export function parseXml(source: string): XmlElement {
  for (const ch of source) {
    const code = ch.codePointAt(0)!;
    if (!isXmlChar(code)) throw new Error(`character U+${code.toString(16)} is not allowed in XML 1.0`);
  }
  let i = 0;
  const prolog = /^<\?xml[^?]*\?>\s*/.exec(source);
  if (prolog !== null) i = prolog[0].length;
  const stack: XmlElement[] = [];
  let root: XmlElement | undefined;
  while (i < source.length) {
    if (source.startsWith('</', i)) {
      const end = source.indexOf('>', i);
      const name = source.slice(i + 2, end).trim();
      const open = stack.pop();
      if (open === undefined || open.name !== name) throw new Error(`</${name}> at ${i} closes <${open?.name ?? 'nothing'}>`);
      if (stack.length === 0) root = open;
      i = end + 1;
    } else if (source[i] === '<') {
      i += 1;
      const name = NAME.exec(source.slice(i))?.[0];
      if (name === undefined) throw new Error(`bad tag name at ${i}`);
      i += name.length;
      const element: XmlElement = { name, attributes: {}, children: [], text: '' };
      for (;;) {
        const ws = /^\s*/.exec(source.slice(i))![0];
        i += ws.length;
        if (source.startsWith('/>', i) || source[i] === '>') break;
        if (ws.length === 0) throw new Error(`attributes must be separated by white space at ${i}`);
        const attr = /^([A-Za-z_:][-A-Za-z0-9_:.]*)\s*=\s*("([^"]*)"|'([^']*)')/.exec(source.slice(i));
        if (attr === null) throw new Error(`bad attribute at ${i}: ${source.slice(i, i + 30)}`);
        const attrName = attr[1]!;
        if (attrName in element.attributes) throw new Error(`duplicate attribute ${attrName} at ${i}`);
        element.attributes[attrName] = decode(attr[3] ?? attr[4] ?? '', i);
        i += attr[0].length;
      }
      if (stack.length === 0 && root !== undefined) throw new Error('more than one root element');
      stack[stack.length - 1]?.children.push(element);
      if (source.startsWith('/>', i)) {
        i += 2;
        if (stack.length === 0) root = element;
      } else {
        i += 1;
        stack.push(element);
      }
    } else {
      const next = source.indexOf('<', i);
      const end = next === -1 ? source.length : next;
      const text = decode(source.slice(i, end), i);
      const parent = stack[stack.length - 1];
      if (parent === undefined) {
        if (text.trim() !== '') throw new Error(`text outside the root element at ${i}`);
      } else parent.text += text;
      i = end;
    }
  }
  if (stack.length > 0) throw new Error(`<${stack[stack.length - 1]!.name}> is never closed`);
  if (root === undefined) throw new Error('no root element');
  return root;
}

export function childrenNamed(element: XmlElement, name: string): XmlElement[] {
  return element.children.filter((c) => c.name === name);
}
