// Pie and bar charts drawn as inline SVG, without libraries (the dashboard works offline).
// Every text put into the chart goes through textContent, never markup.
(function (global) {
  'use strict';

  const SVG_NS = 'http://www.w3.org/2000/svg';

  // Colour-blind friendly palette (Okabe-Ito, then a few neutrals).
  const PALETTE = ['#0072B2', '#E69F00', '#009E73', '#CC79A7', '#56B4E9', '#D55E00', '#F0E442', '#000000', '#999999', '#7F3C8D'];
  const EMPTY_FILL = '#d9dde3';

  function color(index) {
    return PALETTE[((index % PALETTE.length) + PALETTE.length) % PALETTE.length];
  }

  function svgElement(name, attributes) {
    const element = document.createElementNS(SVG_NS, name);
    for (const [key, value] of Object.entries(attributes || {})) element.setAttribute(key, String(value));
    return element;
  }

  function titled(element, text) {
    const title = svgElement('title');
    title.textContent = text;
    element.appendChild(title);
    return element;
  }

  function round(value) {
    return Math.round(value * 1000) / 1000;
  }

  function pointOn(cx, cy, r, angle) {
    return [round(cx + r * Math.cos(angle)), round(cy + r * Math.sin(angle))];
  }

  function percentText(value, total) {
    return total > 0 ? ((value / total) * 100).toFixed(1) + '%' : '0%';
  }

  /**
   * A pie chart as an <svg> element.
   * slices: [{label, value, color?}], values >= 0 (others count as 0).
   * options: {size = 160, title = '', emptyLabel = 'No data', testId}
   * Slices are <path> elements (a single non-zero slice is a <circle>); no data at all draws a grey
   * <circle> with the empty label, so the chart always has a shape.
   */
  function pie(slices, options) {
    const opts = Object.assign({ size: 160, title: '', emptyLabel: 'No data' }, options || {});
    const size = opts.size;
    const cx = size / 2;
    const cy = size / 2;
    const r = size / 2 - 2;
    const items = (slices || []).map((slice, index) => ({
      label: String(slice.label),
      value: Number.isFinite(Number(slice.value)) && Number(slice.value) > 0 ? Number(slice.value) : 0,
      color: slice.color || color(index),
    }));
    const total = items.reduce((sum, item) => sum + item.value, 0);

    const svg = svgElement('svg', {
      viewBox: `0 0 ${size} ${size}`,
      width: size,
      height: size,
      class: 'pie',
      role: 'img',
    });
    if (opts.testId) svg.setAttribute('data-testid', opts.testId);
    const description = items.map((item) => `${item.label}: ${item.value} (${percentText(item.value, total)})`).join(', ');
    svg.setAttribute('aria-label', (opts.title ? opts.title + '. ' : '') + (total > 0 ? description : opts.emptyLabel));
    if (opts.title) titled(svg, opts.title);

    if (total <= 0) {
      svg.appendChild(svgElement('circle', { cx, cy, r, fill: EMPTY_FILL, class: 'slice empty' }));
      const text = svgElement('text', { x: cx, y: cy, 'text-anchor': 'middle', 'dominant-baseline': 'middle', class: 'pie-empty' });
      text.textContent = opts.emptyLabel;
      svg.appendChild(text);
      return svg;
    }

    const visible = items.filter((item) => item.value > 0);
    if (visible.length === 1) {
      const only = visible[0];
      const circle = svgElement('circle', { cx, cy, r, fill: only.color, class: 'slice', 'data-label': only.label });
      svg.appendChild(titled(circle, `${only.label}: ${only.value} (100%)`));
      return svg;
    }

    let angle = -Math.PI / 2; // start at twelve o'clock, clockwise
    for (const item of visible) {
      const sweep = (item.value / total) * 2 * Math.PI;
      const [x0, y0] = pointOn(cx, cy, r, angle);
      const [x1, y1] = pointOn(cx, cy, r, angle + sweep);
      const largeArc = sweep > Math.PI ? 1 : 0;
      const path = svgElement('path', {
        d: `M ${cx} ${cy} L ${x0} ${y0} A ${r} ${r} 0 ${largeArc} 1 ${x1} ${y1} Z`,
        fill: item.color,
        stroke: '#ffffff',
        'stroke-width': 1,
        class: 'slice',
        'data-label': item.label,
      });
      svg.appendChild(titled(path, `${item.label}: ${item.value} (${percentText(item.value, total)})`));
      angle += sweep;
    }
    return svg;
  }

  /**
   * A bar per day as an <svg> element (the trends' series, N5).
   * points: [{day: 'YYYY-MM-DD', count}], in order; counts < 0 or not numbers count as 0.
   * options: {width = 640, height = 200, title = '', testId}
   * Each bar is a <rect class="bar"> with data-day and data-count (a day with none has a flat bar, so every
   * day of the range is there to hover); the axis names the highest count and the first and last day.
   */
  function bars(points, options) {
    const opts = Object.assign({ width: 640, height: 200, title: '' }, options || {});
    const items = (points || []).map((point) => ({
      day: String(point.day),
      count: Number.isFinite(Number(point.count)) && Number(point.count) > 0 ? Number(point.count) : 0,
    }));
    const left = 40;
    const bottom = 20;
    const top = 8;
    const plotWidth = opts.width - left - 4;
    const plotHeight = opts.height - top - bottom;
    const highest = Math.max(1, ...items.map((item) => item.count));
    const svg = svgElement('svg', { viewBox: `0 0 ${opts.width} ${opts.height}`, width: '100%', class: 'bars', role: 'img', preserveAspectRatio: 'none' });
    if (opts.testId) svg.setAttribute('data-testid', opts.testId);
    const sum = items.reduce((total, item) => total + item.count, 0);
    const span = items.length ? `${items[0].day} to ${items[items.length - 1].day}` : 'no days';
    svg.setAttribute('aria-label', `${opts.title ? opts.title + '. ' : ''}${sum} over ${items.length} days, ${span}`);
    if (opts.title) titled(svg, opts.title);
    svg.appendChild(svgElement('line', { x1: left, y1: top + plotHeight, x2: opts.width - 4, y2: top + plotHeight, class: 'axis' }));
    const axisText = (text, x, y, anchor) => {
      const element = svgElement('text', { x, y, 'text-anchor': anchor, class: 'axis-label' });
      element.textContent = text;
      svg.appendChild(element);
    };
    axisText(String(highest), left - 4, top + 10, 'end');
    axisText('0', left - 4, top + plotHeight, 'end');
    if (items.length) {
      axisText(items[0].day, left, opts.height - 4, 'start');
      axisText(items[items.length - 1].day, opts.width - 4, opts.height - 4, 'end');
    }
    const slot = items.length ? plotWidth / items.length : plotWidth;
    const gap = slot > 4 ? Math.min(2, slot * 0.2) : 0;
    items.forEach((item, index) => {
      const barHeight = Math.max(item.count > 0 ? 1 : 0.5, (item.count / highest) * plotHeight);
      const rect = svgElement('rect', {
        x: round(left + index * slot + gap / 2),
        y: round(top + plotHeight - barHeight),
        width: round(Math.max(0.5, slot - gap)),
        height: round(barHeight),
        fill: item.count > 0 ? PALETTE[0] : EMPTY_FILL,
        class: 'bar',
        'data-day': item.day,
        'data-count': item.count,
      });
      svg.appendChild(titled(rect, `${item.day}: ${item.count}`));
    });
    return svg;
  }

  /** A small colour square for legends and table rows. */
  function swatch(fill) {
    const span = document.createElement('span');
    span.className = 'swatch';
    span.style.backgroundColor = fill;
    span.setAttribute('aria-hidden', 'true');
    return span;
  }

  global.Charts = Object.freeze({ pie, bars, color, swatch, PALETTE });
})(window);
