// The report's charts read whole: short labels on the axis never cut, the full name in a tooltip,
// the label column as wide as the longest label; a chart of zeros is not drawn.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { barChart, hasValues, timeline } from './charts.ts';

test('bar labels are drawn whole, with the full title in the tooltip and room for the longest', () => {
  const svg = barChart('Fix attempts per lesson', [
    { label: '1.1', title: '1.1 Readable streams and backpressure in practice', value: 2 },
    { label: '12.10', title: '12.10 A batched CSV-to-database ETL', value: 0 },
  ]);
  assert.doesNotMatch(svg, /…/);
  assert.match(
    svg,
    /<title>1\.1 Readable streams and backpressure in practice: 2<\/title><text x="[\d.]+" y="20" text-anchor="end">1\.1<\/text>/,
  );
  assert.match(svg, /<title>12\.10 A batched CSV-to-database ETL: 0<\/title>/);
  const axis = Number(/<line class="axis" x1="(\d+)"/.exec(svg)?.[1]);
  assert.ok(axis >= 5 * 7.5 && axis < 80, `label column ${axis} px for a 5-character label`);
  const long = barChart('t', [{ label: 'a label of thirty characters!!', value: 1 }]);
  assert.ok(Number(/<line class="axis" x1="(\d+)"/.exec(long)?.[1]) >= 30 * 7.5, 'the column grows with the label');
});

test('a timeline names each phase whole; hasValues is false for all zeros', () => {
  const svg = timeline('Phases', [
    { label: 'gate_sources', start: 0, end: 1000 },
    { label: 'lessons', start: 1000, end: 5000 },
  ]);
  assert.match(svg, />gate_sources<\/text>/);
  assert.equal(
    hasValues([
      { label: '1.1', value: 0 },
      { label: '1.2', value: 0 },
    ]),
    false,
  );
  assert.equal(
    hasValues([
      { label: '1.1', value: 0 },
      { label: '1.2', value: 1 },
    ]),
    true,
  );
});
