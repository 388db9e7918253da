// The table state kept from the server's messages, as parlour/delta.py describes: a
// snapshot (`state`) replaces it; a delta (`delta`, a list of operations) changes it
// when its version `v` is the next one. Nothing here knows a game: the server is the
// authority and sends every change; this only copies it.

/** Apply the operations of one delta to `state` (in place). */
export function applyDelta(state, ops) {
  for (const op of ops) {
    const path = op[1];
    let parent = state;
    for (let i = 0; i < path.length - 1; i += 1) parent = parent[path[i]];
    const key = path[path.length - 1];
    if (op[0] === "=") parent[key] = op[2];
    else if (op[0] === "+") {
      const list = parent[key];
      if (op.length > 3 && op[3]) list.splice(0, op[3]);
      list.push(...op[2]);
    } else if (op[0] === "-") delete parent[key];
    else throw new Error(`unknown delta operation ${op[0]}`);
  }
  return state;
}

export class Mirror {
  constructor() { this.state = null; this.v = null; }

  /** Take one message; false when a version was missed (ask for a snapshot: `sync`). */
  take(m) {
    if (m.state) { this.state = m.state; this.v = m.v; return true; }
    if (!m.delta) return true;
    if (this.state === null || this.v === null || m.v !== this.v + 1) return false;
    applyDelta(this.state, m.delta);
    this.v = m.v;
    return true;
  }
}
