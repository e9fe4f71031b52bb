// The admin dashboard (N5): one page, hash routes, data from analytics-aggregator (same origin) and
// sign-in from auth (its base URL comes from /dashboard/config.json). All data reaches the DOM through
// textContent; nothing is ever written as markup.
(function () {
  'use strict';

  const BASE = '/dashboard/';
  const CONFIG_URL = BASE + 'config.json';
  const STREAM_URL = '/v1/admin/stream';
  const DEFAULT_PAGE_SIZE = 10;
  const SEARCH_DELAY_MS = 250;
  const STREAM_RETRY_MS = 1000;
  const STREAM_RETRY_MAX_MS = 10000;
  const LOGOUT_TIMEOUT_MS = 5000;
  const STORAGE = { access: 'accessToken', refresh: 'refreshToken', email: 'accountEmail' };

  const MESSAGES = {
    emptyField: 'Please fill in every field',
    invalidEmail: 'you entered an invalid email, Please try again',
    forgotInvalidEmail: 'invalid email',
    passwordsDiffer: 'two entered passwords are not the same',
    confirmationMismatch: "the password and confirm password don't match",
    passwordPolicy:
      'the password must be at least 8 characters long and contain an upper-case letter, a lower-case letter and a number',
    notAdmin: 'Only admins can use the dashboard',
    sessionEnded: 'Your session has ended. Please log in again.',
    loggedOut: 'You have been logged out.',
    passwordChanged: 'Your password has been changed',
    unreachable: 'The server could not be reached. Please try again.',
    resetLinkMissing: 'This reset link is not valid: it has no token. Please request a new one.',
  };

  const APPS = { weather: 'Weather', places: 'Places', horoscope: 'Horoscope', survey: 'Hotel survey' };
  const PLATFORMS = { ios: 'iOS', android: 'Android', web: 'Web' };
  const SERVICES = { rooms: 'Rooms', dining: 'Dining', 'spa-pool': 'Spa/Pool', gym: 'Gym' };
  const YES_COLOR = '#009E73';
  const NO_COLOR = '#D55E00';

  const state = {
    config: null,
    flash: null, // {text, kind} shown once by the next view that has a flash slot
    prefetchedHome: null, // the home stats fetched while checking the admin role at login
    view: null, // {controller, cleanups[]} of the view on screen
    renderSeq: 0,
    pendingHash: null, // a hash set by navigate() whose hashchange has not come yet
  };

  // ---------------------------------------------------------------- DOM helpers

  function h(tag, attributes, ...children) {
    const element = document.createElement(tag);
    for (const [key, value] of Object.entries(attributes || {})) {
      if (value === undefined || value === null || value === false) continue;
      if (key === 'text') element.textContent = String(value);
      else if (key === 'class') element.className = value;
      else if (key === 'testid') element.setAttribute('data-testid', value);
      else if (key.startsWith('on') && typeof value === 'function') element.addEventListener(key.slice(2), value);
      else element.setAttribute(key, value === true ? '' : String(value));
    }
    for (const child of children.flat()) {
      if (child === undefined || child === null || child === false) continue;
      element.appendChild(child instanceof Node ? child : document.createTextNode(String(child)));
    }
    return element;
  }

  function clear(node) {
    while (node.firstChild) node.removeChild(node.firstChild);
    return node;
  }

  function role(root, name) {
    return root.querySelector(`[data-role="${name}"]`);
  }

  function byTestId(root, id) {
    return root.querySelector(`[data-testid="${id}"]`);
  }

  function cloneTemplate(id) {
    return document.getElementById(id).content.firstElementChild.cloneNode(true);
  }

  function showText(element, text) {
    if (!element) return;
    element.textContent = text || '';
    element.hidden = !text;
  }

  function number(value) {
    const n = Number(value);
    return Number.isFinite(n) ? String(Math.round(n)) : '0';
  }

  function percent(value) {
    const n = Number(value);
    return (Number.isFinite(n) ? n.toFixed(1) : '0.0') + '%';
  }

  function label(map, key) {
    return Object.prototype.hasOwnProperty.call(map, key) ? map[key] : String(key);
  }

  function isEmail(text) {
    // name@domain.tld, as the seed asks; auth checks it again.
    return /^[^\s@]+@[^\s@]+\.[^\s@]{2,}$/.test(text);
  }

  function isStrongPassword(text) {
    return text.length >= 8 && /[A-Z]/.test(text) && /[a-z]/.test(text) && /[0-9]/.test(text);
  }

  function setBusy(form, busy) {
    for (const element of form.querySelectorAll('button, input, select')) element.disabled = busy;
    form.setAttribute('aria-busy', busy ? 'true' : 'false');
  }

  function takeFlash(slot) {
    if (!slot || !state.flash) return;
    showText(slot, state.flash.text);
    slot.dataset.kind = state.flash.kind || 'info';
    state.flash = null;
  }

  // ---------------------------------------------------------------- session

  const session = {
    get accessToken() {
      return sessionStorage.getItem(STORAGE.access);
    },
    get refreshToken() {
      return sessionStorage.getItem(STORAGE.refresh);
    },
    get email() {
      return sessionStorage.getItem(STORAGE.email);
    },
    save(body) {
      if (!body || typeof body.accessToken !== 'string') throw new Error('the session has no access token');
      sessionStorage.setItem(STORAGE.access, body.accessToken);
      if (typeof body.refreshToken === 'string') sessionStorage.setItem(STORAGE.refresh, body.refreshToken);
      if (body.account && typeof body.account.email === 'string') sessionStorage.setItem(STORAGE.email, body.account.email);
    },
    clear() {
      for (const key of Object.values(STORAGE)) sessionStorage.removeItem(key);
      state.prefetchedHome = null;
    },
  };

  // ---------------------------------------------------------------- HTTP

  class ApiError extends Error {
    constructor(status, code, message, details) {
      super(message);
      this.name = 'ApiError';
      this.status = status;
      this.code = code;
      this.details = details || {};
    }
  }

  /** Thrown when the session ended and the page went back to log-in: callers just stop. */
  class SessionEnded extends Error {
    constructor() {
      super('session ended');
      this.name = 'SessionEnded';
    }
  }

  function authUrl(path) {
    return state.config.authBaseUrl.replace(/\/+$/, '') + path;
  }

  async function request(url, { method = 'GET', body, token, signal } = {}) {
    const headers = { Accept: 'application/json' };
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    if (token) headers.Authorization = 'Bearer ' + token;
    let response;
    try {
      response = await fetch(url, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        signal,
        cache: 'no-store',
        credentials: 'omit',
      });
    } catch (error) {
      if (error && error.name === 'AbortError') throw error;
      throw new ApiError(0, 'network', MESSAGES.unreachable);
    }
    const text = await response.text();
    let json = null;
    if (text) {
      try {
        json = JSON.parse(text);
      } catch (_) {
        json = null;
      }
    }
    if (response.ok) return json;
    const error = json && json.error && typeof json.error === 'object' ? json.error : {};
    let message = typeof error.message === 'string' && error.message ? error.message : `The request failed (HTTP ${response.status}).`;
    const retryAfter = response.headers.get('Retry-After');
    if (response.status === 429 && retryAfter && /^\d+$/.test(retryAfter)) message += ` (try again in ${retryAfter} s)`;
    throw new ApiError(response.status, error.code || `http_${response.status}`, message, error.details);
  }

  let refreshing = null;

  /** Trades the refresh token for a new session once, however many calls ask at the same time. */
  function refreshSession() {
    if (!refreshing) {
      refreshing = (async () => {
        const refreshToken = session.refreshToken;
        if (!refreshToken) return false;
        try {
          session.save(await request(authUrl('/v1/sessions/refresh'), { method: 'POST', body: { refreshToken } }));
          return true;
        } catch (_) {
          return false;
        }
      })().finally(() => {
        refreshing = null;
      });
    }
    return refreshing;
  }

  /** A call with the access token; a 401 refreshes the session once, then ends it. */
  async function withToken(call) {
    const token = session.accessToken;
    if (!token) {
      endSession(MESSAGES.sessionEnded);
      throw new SessionEnded();
    }
    try {
      return await call(token);
    } catch (error) {
      if (!(error instanceof ApiError) || error.status !== 401) throw error;
    }
    if (await refreshSession()) {
      try {
        return await call(session.accessToken);
      } catch (error) {
        if (!(error instanceof ApiError) || error.status !== 401) throw error;
      }
    }
    endSession(MESSAGES.sessionEnded);
    throw new SessionEnded();
  }

  /** analytics-aggregator (same origin). 403 means the token is not an admin's: back to log-in. */
  async function api(path, { signal, params } = {}) {
    let url = path;
    if (params) {
      const query = new URLSearchParams();
      for (const [key, value] of Object.entries(params)) {
        if (value !== undefined && value !== null && value !== '') query.set(key, String(value));
      }
      const text = query.toString();
      if (text) url += '?' + text;
    }
    try {
      return await withToken((token) => request(url, { token, signal }));
    } catch (error) {
      if (error instanceof ApiError && error.status === 403) {
        endSession(MESSAGES.notAdmin, 'error');
        throw new SessionEnded();
      }
      throw error;
    }
  }

  function authPost(path, body, { bearer = false } = {}) {
    if (!bearer) return request(authUrl(path), { method: 'POST', body });
    return withToken((token) => request(authUrl(path), { method: 'POST', body, token }));
  }

  // ---------------------------------------------------------------- navigation and views

  function navigate(route) {
    const hash = '#' + route;
    if (location.pathname !== BASE) {
      location.assign(BASE + hash);
    } else if (location.hash !== hash) {
      state.pendingHash = hash; // the hashchange event renders it
      location.hash = hash;
    } else if (state.pendingHash !== hash) {
      render();
    }
  }

  /** Leaves the signed-in pages: the token is forgotten and the log-in view says why. */
  function endSession(message, kind) {
    session.clear();
    if (message) state.flash = { text: message, kind: kind || 'info' };
    navigate('/login');
  }

  function parseRoute() {
    const raw = location.hash.replace(/^#/, '') || '/';
    const [path, query] = raw.split('?');
    return { path: path.replace(/\/+$/, '') || '/', params: new URLSearchParams(query || '') };
  }

  function isResetPage() {
    return /\/reset-password\/?$/.test(location.pathname);
  }

  function leaveView() {
    const view = state.view;
    state.view = null;
    if (!view) return;
    view.controller.abort();
    for (const cleanup of view.cleanups.splice(0)) {
      try {
        cleanup();
      } catch (error) {
        console.error(error);
      }
    }
  }

  function enterView(node) {
    leaveView();
    const controller = new AbortController();
    const view = { controller, cleanups: [] };
    state.view = view;
    const main = document.getElementById('view');
    clear(main).appendChild(node);
    return {
      signal: controller.signal,
      onLeave: (fn) => view.cleanups.push(fn),
      get active() {
        return state.view === view;
      },
    };
  }

  const ROUTES = {
    '/login': { render: loginView, signedIn: false },
    '/forgot': { render: forgotView, signedIn: false },
    '/home': { render: homeView, signedIn: true },
    '/features': { render: featuresView, signedIn: true },
    '/downloads': { render: downloadsView, signedIn: true },
    '/locations': { render: locationsView, signedIn: true },
    '/poll': { render: pollView, signedIn: true },
    '/survey': { render: surveyView, signedIn: true },
    '/survey/reasons': { render: surveyReasonsView, signedIn: true },
    '/trends': { render: trendsView, signedIn: true },
    '/change-password': { render: changePasswordView, signedIn: true },
  };

  function updateChrome(signedIn, path) {
    const nav = document.getElementById('side-nav');
    nav.hidden = !signedIn;
    document.body.classList.toggle('signed-in', signedIn);
    document.getElementById('who').textContent = signedIn && session.email ? session.email : '';
    for (const link of nav.querySelectorAll('a[data-route]')) {
      if (link.dataset.route === path) link.setAttribute('aria-current', 'page');
      else link.removeAttribute('aria-current');
    }
  }

  function render() {
    state.renderSeq += 1;
    closeLogoutDialog();
    if (isResetPage()) {
      updateChrome(false, null);
      resetView();
      return;
    }
    const { path, params } = parseRoute();
    const route = ROUTES[path];
    const signedIn = Boolean(session.accessToken);
    if (!route) {
      navigate(signedIn ? '/home' : '/login');
      return;
    }
    if (route.signedIn && !signedIn) {
      navigate('/login');
      return;
    }
    if (path === '/login' && signedIn) {
      navigate('/home');
      return;
    }
    updateChrome(route.signedIn, path);
    route.render(params);
  }

  function showFatal(message, retry) {
    leaveView();
    const main = clear(document.getElementById('view'));
    main.appendChild(
      h('section', { class: 'view' }, h('p', { class: 'error', role: 'alert', testid: 'fatal-error', text: message }), retry ? h('button', { type: 'button', onclick: retry, text: 'Try again' }) : null),
    );
  }

  /** Shows an error of a data view, or nothing when the session ended (the page already moved on). */
  function reportError(slot, error) {
    if (error instanceof SessionEnded || (error && error.name === 'AbortError')) return;
    console.error(error);
    showText(slot, error instanceof ApiError ? error.message : 'Something went wrong: ' + (error && error.message));
  }

  // ---------------------------------------------------------------- log-in

  function loginView() {
    const root = cloneTemplate('tpl-login');
    enterView(root);
    const form = role(root, 'form');
    const email = byTestId(root, 'login-email');
    const password = byTestId(root, 'login-password');
    const errorSlot = role(root, 'error');
    takeFlash(role(root, 'flash'));
    const seq = state.renderSeq;

    function fail(message, focus) {
      // The seed: the password field is reset after a failed log-in.
      password.value = '';
      showText(errorSlot, message);
      (focus || password).focus();
    }

    form.addEventListener('submit', async (event) => {
      event.preventDefault();
      showText(errorSlot, '');
      showText(role(root, 'flash'), '');
      const emailText = email.value.trim();
      if (!emailText || !password.value) return fail(MESSAGES.emptyField, emailText ? password : email);
      if (!isEmail(emailText)) return fail(MESSAGES.invalidEmail, email);
      setBusy(form, true);
      try {
        session.save(await authPost('/v1/dashboard/login', { email: emailText, password: password.value }));
        // The dashboard is for admins: analytics answers 403 to anyone else's token.
        try {
          state.prefetchedHome = await request('/v1/admin/stats/home', { token: session.accessToken });
        } catch (error) {
          if (error instanceof ApiError && (error.status === 403 || error.status === 401)) {
            await logoutAtAuth();
            session.clear();
            throw new ApiError(error.status, error.code, error.status === 403 ? MESSAGES.notAdmin : error.message);
          }
          // Analytics is down or slow: the home page says so and keeps trying its live stream.
          console.warn('home stats at log-in failed', error);
        }
        if (seq === state.renderSeq) navigate('/home');
      } catch (error) {
        if (seq !== state.renderSeq) return;
        setBusy(form, false);
        fail(error instanceof ApiError ? error.message : 'Something went wrong: ' + (error && error.message));
        return;
      }
    });
    email.focus();
  }

  // ---------------------------------------------------------------- forgot and reset password

  function forgotView() {
    const root = cloneTemplate('tpl-forgot');
    enterView(root);
    const form = role(root, 'form');
    const email = byTestId(root, 'forgot-email');
    const errorSlot = role(root, 'error');
    const successSlot = role(root, 'success');
    form.addEventListener('submit', async (event) => {
      event.preventDefault();
      showText(errorSlot, '');
      showText(successSlot, '');
      const emailText = email.value.trim();
      if (!emailText) return showText(errorSlot, MESSAGES.emptyField);
      if (!isEmail(emailText)) return showText(errorSlot, MESSAGES.forgotInvalidEmail);
      setBusy(form, true);
      try {
        const answer = await authPost('/v1/dashboard/password/forgot', { email: emailText });
        showText(successSlot, (answer && answer.message) || 'Please check your email to find the reset link');
      } catch (error) {
        showText(errorSlot, error instanceof ApiError ? error.message : String(error));
      } finally {
        setBusy(form, false);
      }
    });
    email.focus();
  }

  function resetView() {
    const root = cloneTemplate('tpl-reset');
    const view = enterView(root);
    const form = role(root, 'form');
    const fields = role(root, 'fields');
    const checking = role(root, 'checking');
    const errorSlot = role(root, 'error');
    const successSlot = role(root, 'success');
    const newPassword = byTestId(root, 'reset-password');
    const confirmation = byTestId(root, 'reset-confirm');
    role(root, 'hint').textContent = 'At least 8 characters, with an upper-case letter, a lower-case letter and a number.';
    const token = new URLSearchParams(location.search).get('token') || '';

    function linkUnusable(message) {
      fields.hidden = true;
      checking.hidden = true;
      showText(errorSlot, message);
    }

    if (!token) {
      linkUnusable(MESSAGES.resetLinkMissing);
      return;
    }
    // Say at once when the link no longer works (seed: "display that the link isn't valid").
    request(authUrl('/v1/dashboard/password/reset?token=' + encodeURIComponent(token)), { signal: view.signal })
      .then(() => {
        checking.hidden = true;
        newPassword.focus();
      })
      .catch((error) => {
        if (error && error.name === 'AbortError') return;
        if (error instanceof ApiError && (error.status === 410 || error.status === 400)) linkUnusable(error.message);
        else {
          checking.hidden = true; // could not check: let the reset itself tell
          showText(errorSlot, error instanceof ApiError ? error.message : String(error));
        }
      });

    form.addEventListener('submit', async (event) => {
      event.preventDefault();
      showText(errorSlot, '');
      if (!newPassword.value || !confirmation.value) return showText(errorSlot, MESSAGES.emptyField);
      if (newPassword.value !== confirmation.value) return showText(errorSlot, MESSAGES.passwordsDiffer);
      if (!isStrongPassword(newPassword.value)) return showText(errorSlot, MESSAGES.passwordPolicy);
      setBusy(form, true);
      try {
        const answer = await authPost('/v1/dashboard/password/reset', {
          token,
          newPassword: newPassword.value,
          confirmation: confirmation.value,
        });
        fields.hidden = true;
        showText(successSlot, ((answer && answer.message) || MESSAGES.passwordChanged) + '. You can now log in with your new password.');
        role(root, 'login-link').focus();
      } catch (error) {
        if (error instanceof ApiError && error.status === 410) linkUnusable(error.message);
        else showText(errorSlot, error instanceof ApiError ? error.message : String(error));
      } finally {
        setBusy(form, false);
      }
    });
  }

  // ---------------------------------------------------------------- change password

  function changePasswordView() {
    const root = cloneTemplate('tpl-change-password');
    const view = enterView(root);
    const form = role(root, 'form');
    const current = byTestId(root, 'cp-current');
    const next = byTestId(root, 'cp-new');
    const confirmation = byTestId(root, 'cp-confirm');
    const errorSlot = role(root, 'error');
    const successSlot = role(root, 'success');
    role(root, 'hint').textContent =
      'The new password needs at least 8 characters, with an upper-case letter, a lower-case letter and a number.';
    form.addEventListener('submit', async (event) => {
      event.preventDefault();
      showText(errorSlot, '');
      showText(successSlot, '');
      if (!current.value || !next.value || !confirmation.value) return showText(errorSlot, MESSAGES.emptyField);
      if (next.value !== confirmation.value) return showText(errorSlot, MESSAGES.confirmationMismatch);
      if (!isStrongPassword(next.value)) return showText(errorSlot, MESSAGES.passwordPolicy);
      setBusy(form, true);
      try {
        // Auth ends every other session and answers a fresh one for this page.
        const answer = await authPost(
          '/v1/dashboard/password/change',
          { currentPassword: current.value, newPassword: next.value, confirmation: confirmation.value },
          { bearer: true },
        );
        session.save(answer);
        form.reset();
        showText(successSlot, MESSAGES.passwordChanged);
        state.flash = { text: MESSAGES.passwordChanged, kind: 'success' };
        const timer = setTimeout(() => {
          if (view.active) navigate('/home');
        }, 1500);
        view.onLeave(() => clearTimeout(timer));
      } catch (error) {
        if (error instanceof SessionEnded) return;
        setBusy(form, false);
        current.value = '';
        showText(errorSlot, error instanceof ApiError ? error.message : String(error));
        return;
      }
      setBusy(form, false);
    });
    current.focus();
  }

  // ---------------------------------------------------------------- logout

  function logoutDialog() {
    return document.getElementById('logout-dialog');
  }

  function openLogoutDialog() {
    const dialog = logoutDialog();
    if (dialog.open) return;
    for (const button of dialog.querySelectorAll('button')) button.disabled = false;
    if (typeof dialog.showModal === 'function') dialog.showModal();
    else dialog.setAttribute('open', '');
    document.getElementById('logout-no').focus();
  }

  function closeLogoutDialog() {
    const dialog = logoutDialog();
    if (!dialog.open) return;
    if (typeof dialog.close === 'function') dialog.close();
    else dialog.removeAttribute('open');
  }

  /** Ends the refresh token's session at auth; best effort, never longer than a few seconds. */
  async function logoutAtAuth() {
    const refreshToken = session.refreshToken;
    const accessToken = session.accessToken;
    if (!refreshToken || !accessToken || !state.config) return;
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), LOGOUT_TIMEOUT_MS);
    try {
      await request(authUrl('/v1/sessions/logout'), { method: 'POST', body: { refreshToken }, token: accessToken, signal: controller.signal });
    } catch (error) {
      // An expired access token or a session that already ended: the page forgets the tokens anyway.
      console.warn('logout at auth failed', error);
    } finally {
      clearTimeout(timer);
    }
  }

  async function confirmLogout() {
    const dialog = logoutDialog();
    for (const button of dialog.querySelectorAll('button')) button.disabled = true;
    leaveView(); // stops the live stream at once
    await logoutAtAuth();
    closeLogoutDialog();
    endSession(MESSAGES.loggedOut);
  }

  // ---------------------------------------------------------------- home

  function homeView() {
    const root = cloneTemplate('tpl-home');
    const view = enterView(root);
    const errorSlot = role(root, 'error');
    takeFlash(role(root, 'flash'));
    for (const table of root.querySelectorAll('table[data-route]')) {
      const go = () => navigate(table.dataset.route);
      table.addEventListener('click', go);
      table.addEventListener('keydown', (event) => {
        if (event.key === 'Enter' || event.key === ' ') {
          event.preventDefault();
          go();
        }
      });
    }

    let liveEvents = 0; // stream events rendered; a fetch older than the newest event is dropped
    let liveUpdated = 0;

    async function load() {
      const eventsBefore = liveEvents;
      try {
        const stats = await api('/v1/admin/stats/home', { signal: view.signal });
        if (view.active && liveEvents === eventsBefore) {
          showText(errorSlot, '');
          renderHome(root, stats);
        }
      } catch (error) {
        if (view.active) reportError(errorSlot, error);
      }
    }

    if (state.prefetchedHome) {
      renderHome(root, state.prefetchedHome);
      state.prefetchedHome = null;
    } else {
      load();
    }

    const stream = openStream({
      signal: view.signal,
      onStatus(status) {
        const slot = role(root, 'live-status');
        slot.dataset.state = status;
        slot.textContent = { connecting: 'Connecting…', live: 'Live', reconnecting: 'Reconnecting…' }[status] || status;
      },
      onOpen() {
        // The stream sends changes; what changed before it was open (since the first numbers, or
        // during a drop) comes with one fetch, dropped if a stream event is newer.
        load();
      },
      onEvent(name, data) {
        if (name !== 'home' || !view.active) return;
        let stats;
        try {
          stats = JSON.parse(data);
        } catch (error) {
          console.warn('unreadable home event', error);
          return;
        }
        liveEvents += 1;
        showText(errorSlot, '');
        renderHome(root, stats);
        liveUpdated += 1;
        root.setAttribute('data-live-updated', String(liveUpdated));
      },
    });
    view.onLeave(stream.stop);
  }

  function fillRows(table, rows) {
    const body = clear(table.tBodies[0]);
    for (const row of rows) body.appendChild(row);
    if (!rows.length) {
      const columns = table.tHead.rows[0].cells.length;
      body.appendChild(h('tr', { class: 'empty-row' }, h('td', { colspan: columns, text: 'No data yet' })));
    }
  }

  function putChart(slot, svg) {
    clear(slot).appendChild(svg);
  }

  function renderHome(root, stats) {
    const downloads = (stats && stats.downloads) || { total: 0, byApp: [], byPlatform: [] };
    const total = byTestId(root, 'downloads-total');
    total.textContent = number(downloads.total);
    total.setAttribute('data-value', number(downloads.total));

    const byApp = (downloads.byApp || []).map((item, index) => ({ label: label(APPS, item.key), value: item.count, color: Charts.color(index) }));
    putChart(role(root, 'chart-downloads'), Charts.pie(byApp, { title: 'Downloads by app' }));
    fillRows(
      byTestId(root, 'downloads-table'),
      byApp.map((slice) => h('tr', { testid: 'download-app-row' }, h('td', {}, Charts.swatch(slice.color)), h('td', { text: slice.label }), h('td', { class: 'num', text: number(slice.value) }))),
    );
    const platforms = (downloads.byPlatform || []).map((item) => `${label(PLATFORMS, item.key)} ${number(item.count)}`);
    role(root, 'platforms').textContent = platforms.length ? 'By platform: ' + platforms.join(' · ') : '';

    const features = (stats.topFeatures || []).slice(0, 5);
    putChart(
      role(root, 'chart-features'),
      Charts.pie(features.map((f, index) => ({ label: f.name, value: f.users, color: Charts.color(index) })), { title: 'Top 5 features by users' }),
    );
    fillRows(
      byTestId(root, 'features-table'),
      features.map((f, index) =>
        h(
          'tr',
          { testid: 'feature-row' },
          h('td', {}, Charts.swatch(Charts.color(index))),
          h('td', { class: 'num', testid: 'feature-rank', text: number(f.rank) }),
          h('td', { testid: 'feature-name', text: f.name }),
          h('td', { class: 'num', testid: 'feature-users', text: number(f.users), title: f.counting === 'approximate' ? 'approximate count' : null }),
        ),
      ),
    );

    const poll = stats.poll || [];
    const pollSlot = clear(role(root, 'chart-poll'));
    if (!poll.length) pollSlot.appendChild(Charts.pie([], { title: 'Poll answers', emptyLabel: 'No questions' }));
    for (const question of poll) {
      const figure = h('figure', { class: 'mini-chart' });
      figure.appendChild(
        Charts.pie(
          [
            { label: 'Yes', value: question.yes, color: YES_COLOR },
            { label: 'No', value: question.no, color: NO_COLOR },
          ],
          { size: 96, title: question.text, emptyLabel: 'No answers' },
        ),
      );
      figure.appendChild(h('figcaption', { text: question.text }));
      pollSlot.appendChild(figure);
    }
    pollSlot.appendChild(
      h('p', { class: 'legend small' }, Charts.swatch(YES_COLOR), ' Yes ', Charts.swatch(NO_COLOR), ' No'),
    );
    fillRows(
      byTestId(root, 'poll-table'),
      poll.map((q) =>
        h(
          'tr',
          { testid: 'poll-row' },
          h('td', { testid: 'poll-question', text: q.text }),
          h('td', { class: 'num', testid: 'poll-yes', text: `${number(q.yes)} (${percent(q.yesPercent)})` }),
          h('td', { class: 'num', testid: 'poll-no', text: `${number(q.no)} (${percent(q.noPercent)})` }),
        ),
      ),
    );

    const locations = (stats.topLocations || []).slice(0, 5);
    putChart(
      role(root, 'chart-locations'),
      Charts.pie(locations.map((l, index) => ({ label: l.name, value: l.views, color: Charts.color(index) })), { title: 'Top 5 cities by views' }),
    );
    fillRows(
      byTestId(root, 'locations-table'),
      locations.map((l, index) =>
        h(
          'tr',
          { testid: 'location-row' },
          h('td', {}, Charts.swatch(Charts.color(index))),
          h('td', { class: 'num', testid: 'location-rank', text: number(l.rank) }),
          h('td', { testid: 'location-name', text: l.name }),
          h('td', { class: 'num', testid: 'location-views', text: number(l.views) }),
        ),
      ),
    );

    const survey = stats.survey || { services: [], overall: { submissions: 0, stars: [], coupons: 0 } };
    fillRows(byTestId(root, 'survey-table'), (survey.services || []).map(surveyServiceRow));
    role(root, 'survey-overall').textContent = overallSummary(survey.overall);
  }

  function surveyServiceRow(s) {
    return h(
      'tr',
      { testid: 'survey-row' },
      h('td', { text: label(SERVICES, s.service) }),
      h('td', { class: 'num', text: number(s.submissions) }),
      h('td', { class: 'num', text: Number.isFinite(Number(s.averagePoints)) ? Number(s.averagePoints).toFixed(1) : '–' }),
      h('td', { class: 'num', text: number(s.belowGood) }),
    );
  }

  function overallSummary(overall) {
    if (!overall) return '';
    const stars = overall.stars || [];
    const counted = stars.reduce((sum, s) => sum + Number(s.count || 0), 0);
    const weighted = stars.reduce((sum, s) => sum + Number(s.key) * Number(s.count || 0), 0);
    const average = counted > 0 ? (weighted / counted).toFixed(1) + ' stars on average' : 'no stars yet';
    return `Overall: ${number(overall.submissions)} submissions, ${average}, ${number(overall.coupons)} coupons given.`;
  }

  // ---------------------------------------------------------------- live stream (Server-Sent Events over fetch)

  /**
   * Reads `GET /v1/admin/stream` with the bearer token (EventSource cannot send it) and calls onEvent for
   * each event; reconnects after a drop, with a growing delay; stops when `signal` aborts.
   */
  function openStream({ signal, onEvent, onOpen, onStatus }) {
    let stopped = false;
    let controller = null;
    let timer = null;
    let failures = 0;
    let opened = false;
    let retryMs = STREAM_RETRY_MS;
    let refreshedAfter401 = false;

    function stop() {
      stopped = true;
      clearTimeout(timer);
      if (controller) controller.abort();
    }
    signal.addEventListener('abort', stop);

    function schedule() {
      if (stopped) return;
      onStatus('reconnecting');
      const delay = Math.min(retryMs * 2 ** Math.min(failures, 4), STREAM_RETRY_MAX_MS);
      failures += 1;
      timer = setTimeout(connect, delay);
    }

    async function connect() {
      if (stopped) return;
      controller = new AbortController();
      if (!opened) onStatus('connecting');
      let response;
      try {
        response = await fetch(STREAM_URL, {
          headers: { Authorization: 'Bearer ' + (session.accessToken || ''), Accept: 'text/event-stream' },
          signal: controller.signal,
          cache: 'no-store',
          credentials: 'omit',
        });
      } catch (_) {
        return schedule();
      }
      if (stopped) return;
      if (response.status === 401) {
        // One refresh per refusal: a token that is refused even when fresh ends the session.
        if (!refreshedAfter401 && (await refreshSession())) {
          refreshedAfter401 = true;
          return connect();
        }
        if (!stopped) endSession(MESSAGES.sessionEnded);
        return;
      }
      if (response.status === 403) {
        if (!stopped) endSession(MESSAGES.notAdmin, 'error');
        return;
      }
      if (!response.ok || !response.body) return schedule();
      failures = 0;
      refreshedAfter401 = false;
      onStatus('live');
      onOpen();
      opened = true;
      try {
        await readEvents(response.body, onEvent, (ms) => {
          retryMs = ms;
        });
      } catch (_) {
        // a dropped connection: reconnect below
      }
      schedule();
    }

    connect();
    return { stop };
  }

  /** Parses a text/event-stream body (the WHATWG format: fields, blank line ends an event). */
  async function readEvents(body, onEvent, onRetry) {
    const reader = body.getReader();
    const decoder = new TextDecoder('utf-8');
    let buffer = '';
    let eventName = '';
    let data = [];

    function line(text) {
      if (text === '') {
        if (data.length) onEvent(eventName || 'message', data.join('\n'));
        eventName = '';
        data = [];
        return;
      }
      if (text.startsWith(':')) return; // a comment, e.g. a keep-alive
      const colon = text.indexOf(':');
      const field = colon < 0 ? text : text.slice(0, colon);
      let value = colon < 0 ? '' : text.slice(colon + 1);
      if (value.startsWith(' ')) value = value.slice(1);
      if (field === 'event') eventName = value;
      else if (field === 'data') data.push(value);
      else if (field === 'retry' && /^\d+$/.test(value)) onRetry(Number(value));
    }

    try {
      for (;;) {
        const { value, done } = await reader.read();
        buffer += decoder.decode(value || new Uint8Array(), { stream: !done });
        for (;;) {
          const match = /\r\n|\n|\r/.exec(buffer);
          if (!match) break;
          // A lone \r at the end may be the first half of \r\n: wait for the next chunk.
          if (match[0] === '\r' && match.index === buffer.length - 1 && !done) break;
          line(buffer.slice(0, match.index));
          buffer = buffer.slice(match.index + match[0].length);
        }
        if (done) return;
      }
    } finally {
      reader.releaseLock();
    }
  }

  // ---------------------------------------------------------------- drill-down pages

  function pageSizeFrom(params) {
    const n = Number(params.get('pageSize'));
    return Number.isInteger(n) && n >= 1 && n <= 100 ? n : DEFAULT_PAGE_SIZE;
  }

  function select(testid, labelText, options, onChange) {
    const element = h('select', { testid, 'aria-label': labelText }, h('option', { value: '', text: 'All' }), options.map(([value, text]) => h('option', { value, text })));
    element.addEventListener('change', onChange);
    return h('label', { class: 'filter' }, labelText + ' ', element);
  }

  /**
   * A table of pages: `load(page, pageSize, signal)` answers `{items, page, pageSize, total}`; `row(item)` makes
   * a <tr>. Returns `reload()` for filters (back to page 1).
   */
  function pagedTable({ view, root, columns, tableTestId, pageSize, load, row, totalText }) {
    const errorSlot = h('p', { class: 'error', role: 'alert', testid: 'page-error', hidden: true });
    const summary = h('p', { class: 'summary muted', testid: tableTestId.replace('-page-table', '-total') });
    const table = h(
      'table',
      { testid: tableTestId, class: 'data-table' },
      h('thead', {}, h('tr', {}, columns.map(([text, numeric]) => h('th', { scope: 'col', class: numeric ? 'num' : null, text })))),
      h('tbody'),
    );
    const prev = h('button', { type: 'button', class: 'secondary', testid: 'pager-prev', text: '‹ Prev' });
    const next = h('button', { type: 'button', class: 'secondary', testid: 'pager-next', text: 'Next ›' });
    const info = h('span', { testid: 'pager-info', 'aria-live': 'polite' });
    root.appendChild(errorSlot);
    root.appendChild(summary);
    root.appendChild(h('div', { class: 'table-wrap' }, table));
    root.appendChild(h('nav', { class: 'pager', 'aria-label': 'Pages' }, prev, info, next));

    let page = 1;
    let pages = 1;
    let seq = 0;
    let inFlight = null;

    async function show(target) {
      seq += 1;
      const mine = seq;
      if (inFlight) inFlight.abort();
      inFlight = new AbortController();
      const abortWithView = () => inFlight && inFlight.abort();
      view.signal.addEventListener('abort', abortWithView, { once: true });
      table.setAttribute('aria-busy', 'true');
      prev.disabled = true;
      next.disabled = true;
      try {
        const result = await load(target, pageSize, inFlight.signal);
        if (mine !== seq || !view.active) return;
        showText(errorSlot, '');
        const total = Number(result.total) || 0;
        const size = Number(result.pageSize) || pageSize;
        page = Number(result.page) || target;
        pages = Math.max(1, Math.ceil(total / size));
        fillRows(table, (result.items || []).map(row));
        summary.textContent = totalText(total);
        summary.setAttribute('data-value', String(total));
        info.textContent = `Page ${page} of ${pages}`;
        info.setAttribute('data-page', String(page));
        info.setAttribute('data-pages', String(pages));
      } catch (error) {
        if (mine !== seq || !view.active) return;
        reportError(errorSlot, error);
      } finally {
        if (mine === seq) {
          table.removeAttribute('aria-busy');
          prev.disabled = page <= 1;
          next.disabled = page >= pages;
        }
      }
    }

    prev.addEventListener('click', () => page > 1 && show(page - 1));
    next.addEventListener('click', () => page < pages && show(page + 1));
    show(1);
    return { reload: () => show(1) };
  }

  function drillDown(title, testid) {
    const root = h(
      'section',
      { class: 'view drill-down', testid },
      h('div', { class: 'view-head' }, h('h1', { text: title }), h('a', { href: '#/home', testid: 'back-home', text: '‹ Home' })),
    );
    return root;
  }

  function featuresView(params) {
    const root = drillDown('Top features', 'features-view');
    const view = enterView(root);
    const search = h('input', {
      type: 'search',
      testid: 'features-search',
      placeholder: 'Search by feature name',
      maxlength: '100',
      autocomplete: 'off',
      'aria-label': 'Search features by the start of their name',
      value: params.get('prefix') || '',
    });
    const range = { from: '', to: '' };
    let app = '';
    const filters = h(
      'div',
      { class: 'filters' },
      h('label', { class: 'filter grow' }, 'Search ', search),
      select('features-app', 'App', Object.entries(APPS), (event) => {
        app = event.target.value;
        table.reload();
      }),
      rangeInputs('features', range, () => table.reload()),
    );
    root.appendChild(filters);
    const table = pagedTable({
      view,
      root,
      tableTestId: 'features-page-table',
      pageSize: pageSizeFrom(params),
      // In a range, features rank by that range's uses; users are counted over all days (not kept per day).
      columns: [['Rank', true], ['Feature'], ['App'], ['Users (all days)', true], ['Counting'], ['Uses', true]],
      load: (page, pageSize, signal) =>
        api('/v1/admin/stats/features', { signal, params: { page, pageSize, prefix: search.value.trim(), app, ...range } }),
      row: (f) =>
        h(
          'tr',
          { testid: 'feature-row' },
          h('td', { class: 'num', testid: 'feature-rank', text: number(f.rank) }),
          h('td', { testid: 'feature-name', text: f.name }),
          h('td', { testid: 'feature-app', text: label(APPS, f.app) }),
          h('td', { class: 'num', testid: 'feature-users', text: number(f.users) }),
          h('td', { testid: 'feature-counting', text: f.counting === 'approximate' ? 'approximate' : 'exact' }),
          h('td', { class: 'num', testid: 'feature-uses', text: number(f.uses) }),
        ),
      totalText: (total) => (search.value.trim() ? `${total} features start with “${search.value.trim()}”` : `${total} features`),
    });
    let timer = null;
    search.addEventListener('input', () => {
      clearTimeout(timer);
      timer = setTimeout(() => table.reload(), SEARCH_DELAY_MS);
    });
    search.addEventListener('keydown', (event) => {
      if (event.key === 'Enter') {
        clearTimeout(timer);
        table.reload();
      }
    });
    view.onLeave(() => clearTimeout(timer));
    search.focus();
  }

  function downloadsView(params) {
    const root = drillDown('Downloads', 'downloads-view');
    const view = enterView(root);
    const filters = { app: '', platform: '', from: '', to: '' };
    const reload = () => table.reload();
    root.appendChild(
      h(
        'div',
        { class: 'filters' },
        select('downloads-app', 'App', Object.entries(APPS), (event) => {
          filters.app = event.target.value;
          reload();
        }),
        select('downloads-platform', 'Platform', Object.entries(PLATFORMS), (event) => {
          filters.platform = event.target.value;
          reload();
        }),
        rangeInputs('downloads', filters, reload),
      ),
    );
    const table = pagedTable({
      view,
      root,
      tableTestId: 'downloads-page-table',
      pageSize: pageSizeFrom(params),
      columns: [['Day'], ['App'], ['Platform'], ['Downloads', true]],
      load: (page, pageSize, signal) => api('/v1/admin/stats/downloads', { signal, params: { page, pageSize, ...filters } }),
      row: (d) =>
        h(
          'tr',
          { testid: 'download-row' },
          h('td', { testid: 'download-day', text: d.day }),
          h('td', { testid: 'download-app', text: label(APPS, d.app) }),
          h('td', { testid: 'download-platform', text: label(PLATFORMS, d.platform) }),
          h('td', { class: 'num', testid: 'download-count', text: number(d.count) }),
        ),
      totalText: (total) => `${total} rows (one per day, app and platform), newest day first`,
    });
  }

  function locationsView(params) {
    const root = drillDown('Locations', 'locations-view');
    const view = enterView(root);
    const range = { from: '', to: '' };
    root.appendChild(h('div', { class: 'filters' }, rangeInputs('locations', range, () => table.reload())));
    const table = pagedTable({
      view,
      root,
      tableTestId: 'locations-page-table',
      pageSize: pageSizeFrom(params),
      columns: [['Rank', true], ['City'], ['Views', true]],
      load: (page, pageSize, signal) => api('/v1/admin/stats/locations', { signal, params: { page, pageSize, ...range } }),
      row: (l) =>
        h(
          'tr',
          { testid: 'location-row' },
          h('td', { class: 'num', testid: 'location-rank', text: number(l.rank) }),
          h('td', { testid: 'location-name', text: l.name }),
          h('td', { class: 'num', testid: 'location-views', text: number(l.views) }),
        ),
      totalText: (total) => `${total} cities viewed`,
    });
  }

  function pollView() {
    const root = drillDown('User ratings', 'poll-view');
    const view = enterView(root);
    const errorSlot = h('p', { class: 'error', role: 'alert', testid: 'page-error', hidden: true });
    const charts = h('div', { class: 'poll-charts large', testid: 'poll-page-charts' });
    const table = h(
      'table',
      { class: 'data-table', testid: 'poll-page-table' },
      h('thead', {}, h('tr', {}, ['Question', 'Yes', 'No', 'Yes %', 'No %'].map((text, i) => h('th', { scope: 'col', class: i ? 'num' : null, text })))),
      h('tbody'),
    );
    const range = { from: '', to: '' };
    root.append(h('div', { class: 'filters' }, rangeInputs('poll', range, () => load())), errorSlot, charts, h('div', { class: 'table-wrap' }, table));
    let seq = 0;
    const load = () => {
      seq += 1;
      const mine = seq;
      return api('/v1/poll/results', { signal: view.signal, params: range })
      .then((result) => {
        if (!view.active || mine !== seq) return;
        showText(errorSlot, '');
        clear(charts);
        const questions = (result && result.questions) || [];
        for (const q of questions) {
          charts.appendChild(
            h(
              'figure',
              { class: 'mini-chart' },
              Charts.pie(
                [
                  { label: 'Yes', value: q.yes, color: YES_COLOR },
                  { label: 'No', value: q.no, color: NO_COLOR },
                ],
                { size: 140, title: q.text, emptyLabel: 'No answers' },
              ),
              h('figcaption', { text: q.text }),
            ),
          );
        }
        fillRows(
          table,
          questions.map((q) =>
            h(
              'tr',
              { testid: 'poll-row' },
              h('td', { testid: 'poll-question', text: q.text }),
              h('td', { class: 'num', testid: 'poll-yes', text: number(q.yes) }),
              h('td', { class: 'num', testid: 'poll-no', text: number(q.no) }),
              h('td', { class: 'num', testid: 'poll-yes-percent', text: percent(q.yesPercent) }),
              h('td', { class: 'num', testid: 'poll-no-percent', text: percent(q.noPercent) }),
            ),
          ),
        );
      })
      .catch((error) => view.active && mine === seq && reportError(errorSlot, error));
    };
    load();
  }

  function surveyView() {
    const root = drillDown('Hotel survey', 'survey-view');
    const view = enterView(root);
    const errorSlot = h('p', { class: 'error', role: 'alert', testid: 'page-error', hidden: true });
    const services = h(
      'table',
      { class: 'data-table', testid: 'survey-page-table' },
      h('thead', {}, h('tr', {}, [['Service'], ['Submissions', true], ['Average points (of 100)', true], ['Under 75 points', true]].map(([text, numeric]) => h('th', { scope: 'col', class: numeric ? 'num' : null, text })))),
      h('tbody'),
    );
    const stars = h(
      'table',
      { class: 'data-table', testid: 'survey-stars-table' },
      h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, h('span', { class: 'sr-only', text: 'Colour' })), h('th', { scope: 'col', text: 'Stars' }), h('th', { scope: 'col', class: 'num', text: 'Submissions' }))),
      h('tbody'),
    );
    const chart = h('div', { class: 'chart', testid: 'chart-survey-stars' });
    const overall = h('p', { class: 'summary', testid: 'survey-overall' });
    const range = { from: '', to: '' };
    root.append(
      h('div', { class: 'filters' }, rangeInputs('survey', range, () => load())),
      errorSlot,
      h('p', {}, h('a', { href: '#/survey/reasons', testid: 'survey-reasons-link', text: 'Why guests rated below good ›' })),
      h('h2', { text: 'Per service' }),
      h('div', { class: 'table-wrap' }, services),
      h('h2', { text: 'Overall rating' }),
      overall,
      h('div', { class: 'chart-row' }, chart, stars),
    );
    let seq = 0;
    const load = () => {
      seq += 1;
      const mine = seq;
      return api('/v1/admin/stats/survey', { signal: view.signal, params: range })
      .then((result) => {
        if (!view.active || mine !== seq) return;
        showText(errorSlot, '');
        fillRows(services, (result.services || []).map(surveyServiceRow));
        overall.textContent = overallSummary(result.overall);
        const distribution = ((result.overall && result.overall.stars) || []).map((s, index) => ({
          label: `${s.key} ★`,
          value: s.count,
          color: Charts.color(index),
        }));
        clear(chart).appendChild(Charts.pie(distribution, { title: 'Overall stars' }));
        fillRows(
          stars,
          distribution.map((slice) => h('tr', { testid: 'survey-stars-row' }, h('td', {}, Charts.swatch(slice.color)), h('td', { text: slice.label }), h('td', { class: 'num', text: number(slice.value) }))),
        );
      })
      .catch((error) => view.active && mine === seq && reportError(errorSlot, error));
    };
    load();
  }

  const SURVEY_PARTS = { rooms: 'Rooms', dining: 'Dining', 'spa-pool': 'Spa/Pool', gym: 'Gym', overall: 'Overall stay' };

  /** N4: the reasons guests gave for a service under 75 points or a stay of three stars or fewer, newest first. */
  function surveyReasonsView(params) {
    const root = drillDown('Why guests rated below good', 'survey-reasons-view');
    const view = enterView(root);
    const filters = { service: '', from: '', to: '' };
    root.appendChild(
      h(
        'div',
        { class: 'filters' },
        select('survey-reasons-service', 'Rated', Object.entries(SURVEY_PARTS), (event) => {
          filters.service = event.target.value;
          table.reload();
        }),
        rangeInputs('survey-reasons', filters, () => table.reload()),
      ),
    );
    const table = pagedTable({
      view,
      root,
      tableTestId: 'survey-reasons-page-table',
      pageSize: pageSizeFrom(params),
      columns: [['When (UTC)'], ['Rated'], ['Score', true], ['Why']],
      load: (page, pageSize, signal) => api('/v1/admin/stats/survey/reasons', { signal, params: { page, pageSize, ...filters } }),
      row: (r) =>
        h(
          'tr',
          { testid: 'survey-reason-row' },
          h('td', { testid: 'survey-reason-when', text: String(r.explainedAt || '').slice(0, 16).replace('T', ' ') }),
          h('td', { testid: 'survey-reason-rated', text: r.part === 'overall' ? SURVEY_PARTS.overall : label(SURVEY_PARTS, r.service) }),
          h('td', { class: 'num', testid: 'survey-reason-score', text: r.part === 'overall' ? `${number(r.stars)} ★` : `${number(r.points)} pts` }),
          h('td', { testid: 'survey-reason-why', text: r.why }),
        ),
      totalText: (total) => `${total} reasons, newest first`,
    });
  }

  /** The trends page (trends.js) with the helpers it shares with the other pages. */
  function trendsView(params) {
    window.Trends.render({ h, api, enterView, drillDown, fillRows, number, label, APPS, reportError, showText }, params);
  }

  /** From and To inputs that narrow a drill-down table to days (N5); `filters` gets `from` and `to`. */
  function rangeInputs(prefix, filters, reload) {
    return ['from', 'to'].map((key) => {
      const text = key === 'from' ? 'From' : 'To';
      const input = h('input', { type: 'date', testid: `${prefix}-${key}`, 'aria-label': text });
      input.addEventListener('change', () => {
        filters[key] = input.value;
        reload();
      });
      return h('label', { class: 'filter' }, text + ' ', input);
    });
  }

  // ---------------------------------------------------------------- start

  async function loadConfig() {
    const response = await fetch(CONFIG_URL, { cache: 'no-store', credentials: 'omit' });
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    const config = await response.json();
    if (!config || typeof config.authBaseUrl !== 'string' || !/^https?:\/\//.test(config.authBaseUrl)) {
      throw new Error('config.json has no authBaseUrl');
    }
    return config;
  }

  async function start() {
    document.getElementById('logout-button').addEventListener('click', openLogoutDialog);
    document.getElementById('logout-no').addEventListener('click', closeLogoutDialog);
    document.getElementById('logout-yes').addEventListener('click', confirmLogout);
    try {
      state.config = await loadConfig();
    } catch (error) {
      console.error(error);
      showFatal('The dashboard could not load its configuration (' + error.message + ').', () => location.reload());
      return;
    }
    window.addEventListener('hashchange', () => {
      state.pendingHash = null;
      render();
    });
    render();
  }

  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start);
  else start();
})();
