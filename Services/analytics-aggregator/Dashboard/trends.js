// The dashboard's trends page (N5): one measure per day over a date range, drawn by Charts.bars, its total
// against the previous period, and the features and cities tables of the same range. The page's helpers
// (requests, elements, views) come from app.js, which calls `Trends.render(ui, params)`.
(function (global) {
  'use strict';

  const RANGES = { '7d': ['Last 7 days', 7], '30d': ['Last 30 days', 30], '12m': ['Last 12 months', 365], custom: ['Custom range', 0] };
  const METRICS = { downloads: 'Downloads', featureUses: 'Feature uses', cityViews: 'City views' };
  const TABLE_ROWS = 10;

  function utcToday() {
    return new Date().toISOString().slice(0, 10);
  }

  function addDays(day, days) {
    const date = new Date(day + 'T00:00:00Z');
    date.setUTCDate(date.getUTCDate() + days);
    return date.toISOString().slice(0, 10);
  }

  /** The days of a preset up to today (UTC, as the aggregates count), or the custom inputs; null while incomplete. */
  function daysOf(state) {
    if (state.range === 'custom') return state.from && state.to ? { from: state.from, to: state.to } : null;
    const to = utcToday();
    return { from: addDays(to, -(RANGES[state.range][1] - 1)), to };
  }

  function changeText(trend) {
    if (trend.changePercent === undefined || trend.changePercent === null) return trend.total > 0 ? 'new' : '—';
    const value = Number(trend.changePercent);
    return (value > 0 ? '+' : '') + value.toFixed(1) + '%';
  }

  function render(ui, params) {
    const { h, api, enterView, drillDown, fillRows, number, label, APPS, reportError, showText } = ui;
    const root = drillDown('Trends', 'trends-view');
    const view = enterView(root);
    // Only the tables' own keys: a parameter such as `constructor` names nothing here.
    const own = (table, key, fallback) => (key !== null && Object.prototype.hasOwnProperty.call(table, key) ? key : fallback);
    const state = {
      range: own(RANGES, params.get('range'), '30d'),
      metric: own(METRICS, params.get('metric'), 'downloads'),
      app: own(APPS, params.get('app'), ''),
      from: params.get('from') || '',
      to: params.get('to') || '',
    };

    const choice = (testid, text, entries, value, onChange) => {
      const element = h('select', { testid, 'aria-label': text }, entries.map(([key, name]) => h('option', { value: key, text: name })));
      element.value = value;
      element.addEventListener('change', () => onChange(element.value));
      return [h('label', { class: 'filter' }, text + ' ', element), element];
    };
    const [rangeLabel] = choice('trends-range', 'Range', Object.entries(RANGES).map(([key, [name]]) => [key, name]), state.range, (value) => {
      state.range = value;
      customBox.hidden = value !== 'custom';
      load();
    });
    const [metricLabel] = choice('trends-metric', 'Measure', Object.entries(METRICS), state.metric, (value) => {
      state.metric = value;
      appSelect.disabled = value === 'cityViews';
      load();
    });
    const [appLabel, appSelect] = choice('trends-app', 'App', [['', 'All'], ...Object.entries(APPS)], state.app, (value) => {
      state.app = value;
      load();
    });
    appSelect.disabled = state.metric === 'cityViews';
    const dateInput = (key, text) => {
      const input = h('input', { type: 'date', testid: `trends-${key}`, 'aria-label': text, value: state[key] });
      input.addEventListener('change', () => {
        state[key] = input.value;
        load();
      });
      return h('label', { class: 'filter' }, text + ' ', input);
    };
    const customBox = h('span', { class: 'filters', hidden: state.range !== 'custom' }, dateInput('from', 'From'), dateInput('to', 'To'));
    root.appendChild(h('div', { class: 'filters' }, rangeLabel, metricLabel, appLabel, customBox));

    const errorSlot = h('p', { class: 'error', role: 'alert', testid: 'page-error', hidden: true });
    const figure = (testid, caption) => {
      const value = h('div', { class: 'figure', testid });
      return [h('div', {}, h('div', { class: 'muted small', text: caption }), value), value];
    };
    const [totalBox, total] = figure('trend-total', 'In the range');
    const [previousBox, previous] = figure('trend-previous', 'The period before');
    const [changeBox, change] = figure('trend-change', 'Change');
    const periodText = h('p', { class: 'muted small', testid: 'trend-period' });
    const chart = h('div', { class: 'trend-chart', testid: 'trend-chart' });
    const table = (testid, columns) =>
      h('table', { testid, class: 'data-table' }, h('thead', {}, h('tr', {}, columns.map(([text, numeric]) => h('th', { scope: 'col', class: numeric ? 'num' : null, text })))), h('tbody'));
    const daysTable = table('trend-days-table', [['Day'], ['Count', true]]);
    const featuresTable = table('trend-features-table', [['Rank', true], ['Feature'], ['App'], ['Uses', true]]);
    const citiesTable = table('trend-locations-table', [['Rank', true], ['City'], ['Views', true]]);
    root.appendChild(errorSlot);
    root.appendChild(h('div', { class: 'trend-summary' }, totalBox, previousBox, changeBox));
    root.appendChild(periodText);
    root.appendChild(chart);
    root.appendChild(
      h(
        'div',
        { class: 'trend-tables' },
        h('section', {}, h('h2', { text: 'Days with counts, newest first' }), h('div', { class: 'table-wrap' }, daysTable)),
        h('section', {}, h('h2', { text: `Top ${TABLE_ROWS} features by uses in the range` }), h('div', { class: 'table-wrap' }, featuresTable)),
        h('section', {}, h('h2', { text: `Top ${TABLE_ROWS} cities by views in the range` }), h('div', { class: 'table-wrap' }, citiesTable)),
      ),
    );

    let seq = 0;
    let inFlight = null;
    view.signal.addEventListener('abort', () => inFlight && inFlight.abort(), { once: true });

    async function load() {
      const days = daysOf(state);
      if (!days) return;
      seq += 1;
      const mine = seq;
      if (inFlight) inFlight.abort();
      inFlight = new AbortController();
      const signal = inFlight.signal;
      root.setAttribute('aria-busy', 'true');
      const app = state.metric === 'cityViews' ? '' : state.app;
      try {
        const [trend, features, cities] = await Promise.all([
          api('/v1/admin/stats/trends', { signal, params: { metric: state.metric, app, ...days } }),
          api('/v1/admin/stats/features', { signal, params: { pageSize: TABLE_ROWS, app, ...days } }),
          api('/v1/admin/stats/locations', { signal, params: { pageSize: TABLE_ROWS, ...days } }),
        ]);
        if (mine !== seq || !view.active) return;
        showText(errorSlot, '');
        total.textContent = number(trend.total);
        total.setAttribute('data-value', String(trend.total));
        previous.textContent = number(trend.previous.total);
        previous.setAttribute('data-value', String(trend.previous.total));
        change.textContent = changeText(trend);
        change.className = 'figure trend-change' + (trend.changePercent > 0 ? ' up' : trend.changePercent < 0 ? ' down' : '');
        periodText.textContent = `${METRICS[trend.metric]} from ${trend.from} to ${trend.to}, against ${trend.previous.from} to ${trend.previous.to} (UTC days).`;
        clear(chart).appendChild(global.Charts.bars(trend.points, { title: `${METRICS[trend.metric]} per day`, testId: 'trend-bars' }));
        const counted = trend.points.filter((point) => Number(point.count) > 0).reverse();
        fillRows(daysTable, counted.map((point) => h('tr', { testid: 'trend-day-row' }, h('td', { text: point.day }), h('td', { class: 'num', text: number(point.count) }))));
        fillRows(
          featuresTable,
          features.items.map((f) =>
            h('tr', { testid: 'trend-feature-row' }, h('td', { class: 'num', text: number(f.rank) }), h('td', { text: f.name }), h('td', { text: label(APPS, f.app) }), h('td', { class: 'num', text: number(f.uses) })),
          ),
        );
        fillRows(
          citiesTable,
          cities.items.map((c) => h('tr', { testid: 'trend-location-row' }, h('td', { class: 'num', text: number(c.rank) }), h('td', { text: c.name }), h('td', { class: 'num', text: number(c.views) }))),
        );
        // What is shown, for a reader (and the browser test) to know the page has settled on this choice.
        root.setAttribute('data-shown', [trend.metric, app, trend.from, trend.to].join('|'));
      } catch (error) {
        if (mine !== seq || !view.active) return;
        reportError(errorSlot, error);
      } finally {
        if (mine === seq) root.removeAttribute('aria-busy');
      }
    }

    function clear(node) {
      while (node.firstChild) node.removeChild(node.firstChild);
      return node;
    }

    load();
  }

  global.Trends = Object.freeze({ render, daysOf, addDays });
})(window);
