import { expect, test } from 'vitest';

// The public surface, pinned (types are not listed: they vanish at run time). Adding or removing an
// export is a visible change to this list; internals stay unexported or under `/internal`.
test('@agent/xml-transport exports exactly these values', async () => {
  expect(Object.keys(await import('@agent/xml-transport')).sort()).toEqual([
    'FINAL_REPORT_TOOL',
    'FinalSlotParser',
    'MAX_OPEN_TAG_LENGTH',
    'STRUCTURED_REPORT_FORMATS',
    'TextAccumulator',
    'XmlTransportError',
    'assertNonce',
    'createNonce',
    'finalTagName',
    'joinXmlNext',
    'judgeUnclosed',
    'parseFinalSlot',
    'parseOpenTag',
    'renderXmlNext',
    'renderXmlNextBody',
    'renderXmlNextHead',
    'stripLeadingThink',
  ]);
});
