import type { DayActivity } from '../../src/services/account-activity';
import { html, type SafeHtml } from './html';
import { funnelStageLabel } from '../../src/services/leads/funnel-stage-labels';

/**
 * Charts drawn on the server as SVG: no script, no chart library, readable by a screen reader
 * through the table each chart comes with.
 */
export function dailyChart(days: DayActivity[]): SafeHtml {
  const width = 900;
  const height = 220;
  const top = 10;
  const bottom = 30;
  const left = 40;
  const plotHeight = height - top - bottom;
  const max = Math.max(1, ...days.map((d) => Math.max(d.leads, d.creditsSpent)));
  const slot = (width - left) / Math.max(1, days.length);
  const bar = Math.max(2, slot / 2 - 2);
  const y = (value: number) => top + plotHeight - (value / max) * plotHeight;
  const bars = days.map((d, i) => {
    const x = left + i * slot + 1;
    const last = i === days.length - 1;
    const label =
      i % 5 === 0 || last
        ? html`<text x="${last ? x + 2 * bar : x}" y="${height - 10}" ${last ? html`text-anchor="end"` : ''}
            >${d.day.slice(5)}</text
          >`
        : '';
    return html`<g
      ><title>${d.day}: ${d.leads} leads, ${d.creditsSpent} credits</title>
      <rect
        class="bar-leads"
        x="${x.toFixed(1)}"
        y="${y(d.leads).toFixed(1)}"
        width="${bar.toFixed(1)}"
        height="${(top + plotHeight - y(d.leads)).toFixed(1)}"
      ></rect>
      <rect
        class="bar-credits"
        x="${(x + bar + 1).toFixed(1)}"
        y="${y(d.creditsSpent).toFixed(1)}"
        width="${bar.toFixed(1)}"
        height="${(top + plotHeight - y(d.creditsSpent)).toFixed(1)}"
      ></rect>
      ${label}</g
    >`;
  });
  return html`<figure class="chart">
    <svg viewBox="0 0 ${width} ${height}" role="img" aria-labelledby="daily-chart-title">
      <title id="daily-chart-title">Leads produced and credits spent per day, last ${days.length} days</title>
      <line x1="${left}" y1="${top + plotHeight}" x2="${width}" y2="${top + plotHeight}" stroke="#aab2c0"></line>
      <text x="0" y="${top + 10}">${max}</text>
      <text x="0" y="${top + plotHeight}">0</text>
      ${bars}
    </svg>
    <figcaption class="legend">
      <span><span class="sw leads"></span>Leads</span><span><span class="sw credits"></span>Credits spent</span>
    </figcaption>
  </figure>`;
}

export interface FunnelStage {
  filter: string;
  removed: number;
  remaining: number;
}

/** Candidates, then what remains after each filter, as horizontal bars. */
export function funnelChart(candidates: number, stages: FunnelStage[], leads: number): SafeHtml {
  const rows = [
    { label: 'candidates', value: candidates, removed: 0 },
    ...stages.map((s) => ({ label: funnelStageLabel(s.filter), value: s.remaining, removed: s.removed })),
    { label: 'leads', value: leads, removed: 0 },
  ];
  const width = 700;
  const rowHeight = 24;
  const labelWidth = 170;
  const max = Math.max(1, ...rows.map((r) => r.value));
  const height = rows.length * rowHeight + 4;
  return html`<figure class="chart">
    <svg viewBox="0 0 ${width} ${height}" role="img" aria-labelledby="funnel-title">
      <title id="funnel-title">Funnel: candidates remaining after each filter</title>
      ${rows.map((r, i) => {
        const w = ((width - labelWidth - 90) * r.value) / max;
        const yPos = i * rowHeight + 2;
        return html`<g
          ><title>${r.label}: ${r.value} remaining${r.removed ? `, ${r.removed} removed` : ''}</title>
          <text x="0" y="${yPos + 15}">${r.label}</text>
          <rect
            class="bar-funnel"
            x="${labelWidth}"
            y="${yPos + 3}"
            width="${Math.max(1, w).toFixed(1)}"
            height="${rowHeight - 8}"
          ></rect>
          <text x="${(labelWidth + Math.max(1, w) + 6).toFixed(1)}" y="${yPos + 15}"
            >${r.value}${r.removed ? ` (−${r.removed})` : ''}</text
          ></g
        >`;
      })}
    </svg>
  </figure>`;
}
