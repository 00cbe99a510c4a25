import type { Area, Level, Requirement } from '../model/requirement.ts';

/** Builds an area's entries; the id's first segment must name the area and the second the section. */
export function requirements(
  area: Area,
  entries: ReadonlyArray<{ id: string; level: Level; section: string; statement: string; quote?: string }>,
): Requirement[] {
  return entries.map((e) => ({ ...e, area }));
}
