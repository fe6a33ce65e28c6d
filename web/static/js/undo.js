// What "Desfazer" undoes, as the GM page can tell from the events it receives.
//
// An event carries its command's NAME, not its number, so the page groups events into
// commands itself: a new group starts when the command name changes or after an `estado` (the
// server sends one after every command's events). Groups seen live are trusted; the history
// replayed on (re)connect arrives in one piece, so two same-named commands there could look
// like one: those groups are never greyed out nor named. An undo event ({desfeito, comando})
// undoes the last group still in force that changes the table — if its name matches.

/** Commands that never change the table: never undone, so never the target. */
// Commands desfazer skips (companion/history/replay.py PLACELESS): views, desfazer itself, and the
// session's own system commands (the rules changed, a history notice, a seat freed).
const NOT_UNDOABLE = new Set(["ajuda", "estado", "registro", "desfazer", "inicio_sessao",
  "regras_mudaram", "aviso_historico", "lugar_liberado"]);
export const UNDO = "desfazer";
const KEEP = 300; // groups remembered (the log shows at most 300 entries anyway)

export function undoTracker() {
  const groups = []; // {name, events, trusted, undone}
  let open = null;
  let live = false; // false while a (re)connection replays the history

  const target = () => [...groups].reverse().find((g) => !g.undone && !NOT_UNDOABLE.has(g.name)) || null;

  /** Take one event; for an undo event, returns the undone command's events to grey out. */
  function event(ev) {
    const name = String(ev.command || "");
    if (name === UNDO) {
      open = null;
      return undo(ev);
    }
    if (!open || open.name !== name) {
      open = { name, events: [], trusted: live, undone: false };
      groups.push(open);
      if (groups.length > KEEP) groups.shift();
    }
    open.events.push(ev);
    return [];
  }

  function undo(ev) {
    const data = ev.data && typeof ev.data === "object" ? ev.data : {};
    if (data.desfeito === undefined || data.desfeito === null) return [];
    const undone = target();
    if (!undone || undone.name !== data.comando) {
      distrust(groups.length); // the page lost track: name nothing older any more
      return [];
    }
    undone.undone = true;
    if (!undone.trusted) {
      // It may have held two commands, only the last one undone: the older groups are uncertain.
      distrust(groups.indexOf(undone));
      return [];
    }
    return undone.events;
  }

  function distrust(end) {
    groups.slice(0, end).forEach((g) => { g.trusted = false; });
  }

  return {
    event,
    /** An `estado` arrived: the events so far are complete commands; from now on, live. */
    state() { open = null; live = true; },
    /** The connection dropped: until the next estado, events are a replayed history. */
    reconnecting() { open = null; live = false; },
    /** The server's ranked last-result lines (`resultado`): each command's best line
     * becomes its headline, what "Desfazer" says it takes back. */
    headlines(lines) {
      for (const line of lines) {
        const seq = Number(line && line.seq);
        const group = groups.find((g) => g.events.some((e) => Number(e.seq) === seq));
        if (group && !group.headline && String(line.text || "").trim()) group.headline = line;
      }
    },
    /** The command the next undo would take back, when the page can tell: {name, events,
     * headline}. */
    next() {
      const g = target();
      return g && g.trusted ? { name: g.name, events: g.events, headline: g.headline || null } : null;
    },
  };
}
