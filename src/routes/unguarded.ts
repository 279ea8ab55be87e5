// The control path anyone may call, apart from the route catalogue: the guard reads it on every control request, and a start loads the catalogue only when a route list is first asked for.

/** Health, for readiness checks (the document marks it open). */
export const UNGUARDED_CONTROL_PATH = /^\/_sandbox\/health\/?$/i;
