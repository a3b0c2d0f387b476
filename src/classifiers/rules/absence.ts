// Lines that report the ABSENCE of a condition: a health check or a checklist naming a failure only to
// say it did not happen ("* No `GPU has fallen off the bus`", "no OOM-killer messages in dmesg", "No Xid
// errors found"). A rule's match in such a position is no evidence: the engine (engine.ts evalLine)
// treats the line as judged and fires nothing.
//
// The shape, from how checklists and health reports word an absence: a negator right before the match
// (no / not / never / without / zero / none of / no sign of / did not see …), AND the match quoted (a
// checklist naming the exact message it looked for) or followed by a verb of finding (detected, found,
// seen, observed, reported, present, logged, occurred; "in dmesg", "in the kernel log"). A negator alone
// is not enough: many failure messages start with one ("No CUDA GPUs are available", "No space left on
// device" are matched whole, negator included).

/** The text just before a match ends with a negator (and optionally "any", an article, an opening quote). */
export const ABSENCE_BEFORE =
  /(?:^|[^\w'])(?:[Nn]o|NO|[Nn]ot|NOT|[Nn]ever|[Ww]ithout|[Zz]ero|[Nn]one of(?: the)?|[Aa]bsence of|[Ff]ree of|[Nn]o (?:sign|signs|evidence|trace|mention) of|(?:did|do|does|could|would) ?n[o']t (?:see|find|show|get|contain|have|hit|report|log))\s+(?:any\s+|more\s+|an?\s+|the\s+)?[`'"“‘]?$/;

/** After the match: a verb of finding, or where it was looked for. */
export const ABSENCE_AFTER =
  /^[`'"”’]?[\s,]*(?:(?:was|were|is|are|has been|have been|had been)\s+)?(?:(?:ever\s+)?(?:detected|found|seen|observed|reported|present|logged|recorded|occurred|happened|noticed|encountered)\b|(?:errors?|events?|messages?|entries|lines?|warnings?)\s+(?:in|from|were|was|found|detected|seen|observed|reported|logged)\b|(?:errors?|events?|messages?|entries|warnings?)?\s*in (?:dmesg|the kernel log|kernel logs?|syslog|the journal|journalctl|the logs?|nvidia-smi)\b)/i;

const OPEN_QUOTE = /[`'"“‘]$/;
const CLOSE_QUOTE = /^[`'"”’]/;

/** Whether the match line[start, end) stands in a position that reports the condition absent. */
export function reportsAbsence(line: string, start: number, end: number): boolean {
  const after = line.slice(end, end + 80);
  const before = line.slice(Math.max(0, start - 48), start);
  if (!ABSENCE_BEFORE.test(before)) return false;
  return (OPEN_QUOTE.test(before) && CLOSE_QUOTE.test(after)) || ABSENCE_AFTER.test(after);
}
