/*
 * The degradation status page: reads GET <base>/degradation (the endpoint's own JSON, relative to
 * this page, so it follows the Actuator's base path, port and any proxy prefix) every few seconds
 * and shows it. It only reads; it fetches nothing from anywhere else and sets no cookie. Every
 * value is written as text, never as HTML.
 */
(function () {
  'use strict';

  var body = document.body;
  var refreshMs = parseInt(body.getAttribute('data-refresh-ms'), 10) || 3000;
  var source = body.getAttribute('data-source');
  var lastAnswerAt = null;
  var refreshes = 0;

  function el(tag, attributes, children) {
    var node = document.createElement(tag);
    Object.keys(attributes || {}).forEach(function (name) {
      if (attributes[name] !== null && attributes[name] !== undefined) {
        node.setAttribute(name, attributes[name]);
      }
    });
    (children || []).forEach(function (child) {
      if (child === null || child === undefined) {
        return;
      }
      node.appendChild(typeof child === 'string' ? document.createTextNode(child) : child);
    });
    return node;
  }

  function pill(text, kind) {
    return el('span', { 'class': 'pill ' + kind }, [text]);
  }

  function sub(text) {
    return el('span', { 'class': 'sub' }, [text]);
  }

  function byId(id) {
    return document.getElementById(id);
  }

  function clear(node) {
    while (node.firstChild) {
      node.removeChild(node.firstChild);
    }
    return node;
  }

  function ago(instant) {
    if (!instant) {
      return 'never';
    }
    var seconds = Math.round((Date.now() - Date.parse(instant)) / 1000);
    if (isNaN(seconds)) {
      return String(instant);
    }
    if (seconds < 0) {
      return 'in ' + span(-seconds);
    }
    return span(seconds) + ' ago';
  }

  function span(seconds) {
    if (seconds < 90) {
      return seconds + ' s';
    }
    if (seconds < 5400) {
      return Math.round(seconds / 60) + ' min';
    }
    if (seconds < 172800) {
      return Math.round(seconds / 3600) + ' h';
    }
    return Math.round(seconds / 86400) + ' d';
  }

  function time(instant) {
    if (!instant) {
      return '';
    }
    var date = new Date(instant);
    return isNaN(date.getTime()) ? String(instant) : date.toISOString().replace('T', ' ').replace(/\.\d+Z$/, 'Z');
  }

  function stateKind(state) {
    return state === 'HEALTHY' ? 'ok' : state === 'FAILED' ? 'bad' : 'muted';
  }

  function breakerKind(state) {
    return state === 'CLOSED' ? 'ok' : state === 'OPEN' ? 'bad' : state === 'HALF_OPEN' ? 'warn' : 'muted';
  }

  function routeName(route) {
    return route.method + ' ' + route.path;
  }

  function allRoutes(status) {
    var routes = [];
    (status.tiers || []).forEach(function (tier) {
      (tier.routes || []).forEach(function (route) {
        routes.push({ tier: tier, route: route });
      });
    });
    return routes;
  }

  function renderSummary(status) {
    var routes = allRoutes(status);
    var shed = routes.filter(function (entry) { return entry.route.shed; });
    var failed = Object.keys(status.dependencies || {}).filter(function (name) {
      return status.dependencies[name].state === 'FAILED';
    });
    var open = Object.keys(status.dependencies || {}).filter(function (name) {
      return status.dependencies[name].breaker === 'OPEN';
    });
    var degraded = status.level > 0 || shed.length > 0;
    byId('summary').setAttribute('data-degraded', String(degraded));
    byId('level').textContent = String(status.level);
    var parts = [];
    if (!degraded) {
      parts.push('Serving everything: nothing is shed');
    }
    else {
      parts.push(shed.length + ' of ' + routes.length + ' route' + (routes.length === 1 ? '' : 's') + ' shed');
      if (status.shedTiers && status.shedTiers.length) {
        parts.push('tiers shed: ' + status.shedTiers.join(', '));
      }
    }
    if (failed.length) {
      parts.push('failed: ' + failed.join(', '));
    }
    if (open.length) {
      parts.push('breaker open: ' + open.join(', '));
    }
    byId('headline').textContent = parts.join(' \u00b7 ');
    byId('reason').textContent = 'Level ' + status.level +
      (status.changedAt ? ' since ' + time(status.changedAt) + ' (' + ago(status.changedAt) + ')' : '') +
      (status.reason ? ': ' + status.reason : '');
    var simulation = byId('simulation');
    if (status.simulation && status.simulation.enabled) {
      simulation.hidden = false;
      simulation.textContent = 'Simulation is on at level ' + status.simulation.level +
        ': the level is forced, whatever the dependencies say.';
    }
    else {
      simulation.hidden = true;
    }
  }

  function renderDependencies(status) {
    var tbody = clear(byId('dependencies').tBodies[0]);
    var names = Object.keys(status.dependencies || {});
    byId('dependencies-empty').hidden = names.length > 0;
    var routes = allRoutes(status);
    names.forEach(function (name) {
      var dependency = status.dependencies[name];
      var stateCell = el('td', {}, [pill(dependency.state, stateKind(dependency.state))]);
      if (dependency.forced) {
        stateCell.appendChild(sub('forced (probes say ' + dependency.computedState + ')'));
      }
      else if (dependency.computedState && dependency.computedState !== dependency.state) {
        stateCell.appendChild(sub('probes say ' + dependency.computedState));
      }
      var breakerCell = el('td', {}, [pill(dependency.breaker || 'none', breakerKind(dependency.breaker))]);
      if (dependency.breakerChangedAt) {
        breakerCell.appendChild(sub('since ' + ago(dependency.breakerChangedAt)));
      }
      if (dependency.breakerNote) {
        breakerCell.appendChild(el('br', {}, []));
        breakerCell.appendChild(sub(dependency.breakerNote));
      }
      var probe = dependency.lastProbe;
      var probeCell = el('td', {}, probe
        ? [pill(probe.outcome, probe.healthy ? 'ok' : 'bad'), ' ' + probe.latencyMs + ' ms, ' + ago(probe.at),
          probe.detail ? sub(probe.detail) : null]
        : ['no probe yet']);
      var shedHere = routes.filter(function (entry) {
        return entry.route.shed && entry.route.shedReason === 'dependency:' + name;
      }).map(function (entry) { return routeName(entry.route); });
      tbody.appendChild(el('tr', { 'data-dependency': name, 'data-state': dependency.state,
        'data-breaker': dependency.breaker }, [
        el('td', {}, [el('strong', {}, [name]), dependency.healthUrl ? sub(dependency.healthUrl) : null]),
        stateCell,
        breakerCell,
        el('td', { 'class': 'num' }, [(Math.round(dependency.errorRate * 1000) / 10) + ' %',
          sub(dependency.samples + ' sample' + (dependency.samples === 1 ? '' : 's'))]),
        probeCell,
        el('td', {}, shedHere.length ? shedHere.map(function (route) { return el('code', { 'class': 'sub' }, [route]); })
          : ['\u2013'])
      ]));
    });
  }

  // When a shed route comes back and what holds it: one line per rule, the detail on hover.
  function comesBack(route) {
    if (!route.shed) {
      return el('td', {}, ['\u2013']);
    }
    var lines = [route.restoresAt ? time(route.restoresAt) + ' (' + ago(route.restoresAt) + ')' : 'when a condition clears'];
    (route.heldBy || []).forEach(function (hold) {
      var line = sub(hold.rule + (hold.restoresAt ? ' until ' + time(hold.restoresAt) : ''));
      line.setAttribute('title', hold.detail);
      lines.push(el('br', {}, []), line);
    });
    return el('td', { 'data-restores-at': route.restoresAt || '' }, lines);
  }

  function renderTiers(status) {
    var container = clear(byId('tiers'));
    (status.tiers || []).forEach(function (tier) {
      var rows = (tier.routes || []).map(function (route) {
        return el('tr', { 'data-route': routeName(route), 'data-shed': String(route.shed) }, [
          el('td', {}, [el('code', {}, [routeName(route)])]),
          el('td', {}, [route.shed ? pill('shed', 'bad') : pill('served', 'ok')]),
          el('td', {}, [route.shed ? (route.shedReason || 'level') : '\u2013']),
          comesBack(route),
          el('td', {}, [route.fallback]),
          el('td', {}, [(route.requires || []).join(', ') || '\u2013']),
          el('td', { 'class': 'num' }, [String(route.fallbacksServed)])
        ]);
      });
      container.appendChild(el('div', { 'class': 'tier', 'data-tier': tier.name, 'data-shed': String(tier.shed) }, [
        el('h3', {}, [tier.name + ' (priority ' + tier.priority + ') ', tier.shed ? pill('tier shed', 'bad') : null]),
        el('table', {}, [
          el('thead', {}, [el('tr', {}, ['Route', 'Now', 'Cause', 'Comes back', 'Fallback', 'Requires', 'Fallbacks served']
            .map(function (title) { return el('th', {}, [title]); }))]),
          el('tbody', {}, rows)
        ])
      ]));
    });
  }

  function renderOverload(status) {
    var section = byId('overload-section');
    var overload = status.overload;
    section.hidden = !overload;
    if (!overload) {
      return;
    }
    var figures = [
      ['Limit', overload.limit], ['In flight', overload.inflight], ['Waiting', overload.waiting],
      ['Admitted / s', overload.admittedPerSecond], ['Shed / s', overload.shedPerSecond],
      ['Refused / s', overload.refusedPerSecond], ['Level demanded', overload.level],
      ['Admitted (total)', overload.admitted], ['Shed (total)', overload.shed], ['Refused (total)', overload.refused]
    ];
    var list = clear(byId('overload'));
    figures.forEach(function (figure) {
      list.appendChild(el('div', { 'data-figure': figure[0] }, [el('dt', {}, [figure[0]]), el('dd', {}, [String(figure[1])])]));
    });
  }

  function renderControls(status) {
    var switches = clear(byId('switches').tBodies[0]);
    var names = Object.keys(status.switches || {});
    byId('switches-empty').hidden = names.length > 0;
    names.forEach(function (name) {
      var state = status.switches[name];
      switches.appendChild(el('tr', { 'data-switch': name }, [el('td', {}, [name]),
        el('td', {}, [pill(state.toLowerCase(), state === 'OFF' ? 'bad' : 'ok')])]));
    });
    var overrides = clear(byId('overrides').tBodies[0]);
    var list = status.overrides || [];
    byId('overrides-empty').hidden = list.length > 0;
    byId('overrides').hidden = list.length === 0;
    list.forEach(function (override) {
      overrides.appendChild(el('tr', { 'data-override': override.target }, [
        el('td', {}, [el('code', {}, [override.target])]),
        el('td', {}, [override.state]),
        el('td', {}, [override.by]),
        el('td', {}, [time(override.at), sub(ago(override.at))]),
        el('td', {}, override.until ? [time(override.until), sub(ago(override.until))] : ['until removed'])
      ]));
    });
  }

  function renderSignals(status) {
    var tbody = clear(byId('signals').tBodies[0]);
    Object.keys(status.signals || {}).forEach(function (name) {
      var signal = status.signals[name];
      var demands = [];
      if (signal.level > 0) {
        demands.push((signal.exact ? 'exactly level ' : 'level ') + signal.level);
      }
      if (signal.routes > 0) {
        demands.push(signal.routes + ' route' + (signal.routes === 1 ? '' : 's'));
      }
      // The kind is what its routes' causes start with and what the fallback metrics count them
      // under, so that an operator can go from a Cause or a metric to the signal.
      tbody.appendChild(el('tr', { 'data-signal': name, 'data-kind': signal.kind || '' }, [el('td', {}, [name]),
        el('td', {}, [el('code', {}, [signal.kind || '\u2013'])]),
        el('td', {}, [demands.length ? demands.join(', ') : 'nothing']), el('td', {}, [signal.reason || '\u2013'])]));
    });
  }

  function render(status) {
    renderSummary(status);
    renderDependencies(status);
    renderTiers(status);
    renderOverload(status);
    renderControls(status);
    renderSignals(status);
  }

  function connection(state, text) {
    var node = byId('connection');
    node.setAttribute('data-connection', state);
    node.textContent = text;
  }

  function refresh() {
    var controller = (typeof AbortController === 'function') ? new AbortController() : null;
    var timeout = controller ? setTimeout(function () { controller.abort(); }, Math.max(refreshMs, 2000)) : null;
    fetch(source, { headers: { 'Accept': 'application/json' }, credentials: 'same-origin', cache: 'no-store',
      signal: controller ? controller.signal : undefined })
      .then(function (response) {
        if (!response.ok) {
          throw new Error('HTTP ' + response.status);
        }
        return response.json();
      })
      .then(function (status) {
        render(status);
        // How many answers the page has drawn, so that a test (or a person) can tell one refresh
        // from the next.
        body.setAttribute('data-refreshes', String(++refreshes));
        lastAnswerAt = new Date();
        connection('live', 'Updated ' + lastAnswerAt.toLocaleTimeString() + ', every ' + (refreshMs / 1000) + ' s');
      })
      .catch(function (error) {
        connection('lost', 'No answer from the service' +
          (lastAnswerAt ? ' since ' + lastAnswerAt.toLocaleTimeString() + ': what is shown is old' : '') +
          ' (' + (error && error.message ? error.message : error) + ')');
      })
      .then(function () {
        if (timeout) {
          clearTimeout(timeout);
        }
        setTimeout(refresh, refreshMs);
      });
  }

  refresh();
})();
