/* The C face of libagentwarrant.so: the Lean runtime and the oracle's modules initialized once, and the
   @[export] functions of lean/AgentWarrant/Oracle/InProc.lean behind a plain C interface for ctypes
   (model/oracle/inproc.py).

   Objects: a policy or a state is a Lean object the caller holds as an opaque pointer and gives back
   with aw_release. Texts: a function answering text returns a pointer into the calling thread's
   last answer (valid until that thread's next call) and writes its length; the caller copies it.
   Exported Lean functions take their arguments owned: the shim adds a reference to each object it
   passes, so the caller's stays valid.
   Faults: every entry returns a status (0 ok, 1 the Lean function answered an error, 2 Lean
   panicked, 3 not initialized); a panic is caught by wrapping the runtime's panic functions
   (-Wl,--wrap at link time), which record the message instead of printing it, so a call that
   panicked is reported as a fault even though Lean carried on with a default value.
   Texts in are NUL-terminated UTF-8 (JSON text never holds a raw NUL).
   Threads: callers serialize (the Python side holds the GIL across calls); each thread is
   registered with the runtime on its first call. leanc compiles as C++, hence extern "C". */
#include <lean/lean.h>
#include <stdint.h>
#include <string.h>
#ifdef __cplusplus
extern "C" {
#endif
lean_object* initialize_AgentWarrant_Oracle_InProc(lean_object* world);
void lean_initialize_runtime_module(void);
void lean_set_panic_messages(bool flag);
void _ZN4lean17initialize_threadEv(void);  /* lean::initialize_thread() */

lean_object* aw_lean_handle(lean_object*);
lean_object* aw_lean_json(lean_object*);
lean_object* aw_lean_handle_with(lean_object*, lean_object*);
lean_object* aw_lean_policy(lean_object*);
lean_object* aw_lean_state(lean_object*);
lean_object* aw_lean_decide(lean_object*, lean_object*, lean_object*);
lean_object* aw_lean_decide_pos(lean_object*, lean_object*, lean_object*);
lean_object* aw_lean_observe_null(lean_object*, lean_object*, size_t, uint8_t);
lean_object* aw_lean_observe(lean_object*, lean_object*, size_t, uint8_t, lean_object*);
lean_object* aw_lean_state_json(lean_object*);
size_t aw_lean_trace_length(lean_object*);
lean_object* aw_lean_panic_probe(lean_object*);
uint8_t aw_lean_parse_agrees(lean_object*);

lean_object* __real_lean_panic_fn(lean_object* default_val, lean_object* msg);
lean_object* __real_lean_array_get_panic(lean_object* def_val);
lean_object* __real_lean_array_set_panic(lean_object* a, lean_object* v);

static int initialized = 0;
static __thread int thread_ready = 0;
static __thread int panicked = 0;
static __thread char panic_text[512];
static __thread lean_object* last_answer = NULL;

static void note_panic(const char* text) {
    if (!panicked) {  /* the first panic of a call is the one reported */
        strncpy(panic_text, text, sizeof panic_text - 1);
        panic_text[sizeof panic_text - 1] = 0;
    }
    panicked = 1;
}

lean_object* __wrap_lean_panic_fn(lean_object* default_val, lean_object* msg) {
    note_panic(lean_string_cstr(msg));
    return __real_lean_panic_fn(default_val, msg);
}

lean_object* __wrap_lean_array_get_panic(lean_object* def_val) {
    note_panic("index out of bounds (array read)");
    return __real_lean_array_get_panic(def_val);
}

lean_object* __wrap_lean_array_set_panic(lean_object* a, lean_object* v) {
    note_panic("index out of bounds (array write)");
    return __real_lean_array_set_panic(a, v);
}

int aw_init(void) {  /* once per process, before any other call; 0 on success */
    if (initialized) return 0;
    lean_initialize_runtime_module();
    lean_set_panic_messages(false);
    lean_object* r = initialize_AgentWarrant_Oracle_InProc(lean_io_mk_world());
    if (!lean_io_result_is_ok(r)) return 1;
    lean_dec_ref(r);
    lean_io_mark_end_initialization();
    initialized = 1;
    thread_ready = 1;
    return 0;
}

static int enter(void) {
    if (!initialized) return 3;
    if (!thread_ready) { _ZN4lean17initialize_threadEv(); thread_ready = 1; }
    panicked = 0;
    panic_text[0] = 0;
    return 0;
}

/* The answer text `s` (owned) becomes the thread's last answer. */
static const char* keep(lean_object* s, size_t* len) {
    if (last_answer != NULL) lean_dec_ref(last_answer);
    last_answer = s;
    *len = lean_string_size(s) - 1;
    return lean_string_cstr(s);
}


/* An Except's payload (owned) and whether it is Except.ok; an error's message becomes the last answer. */
static int except_ok(lean_object* r, lean_object** out, const char** msg, size_t* len) {
    lean_object* v = lean_ctor_get(r, 0);
    lean_inc(v);
    int ok = lean_obj_tag(r) == 1;
    lean_dec_ref(r);
    if (ok) { *out = v; return 1; }
    *msg = keep(v, len);
    return 0;
}

const char* aw_panic_text(void) { return panic_text; }

void aw_release(lean_object* o) { if (o != NULL) lean_dec(o); }

int aw_handle(const char* line, const char** answer, size_t* len) {
    int e = enter(); if (e) return e;
    lean_object* r = aw_lean_handle(lean_mk_string(line));
    *answer = keep(r, len);
    return panicked ? 2 : 0;
}

/* A JSON text as a Lean value (on success *value is a new object, released with aw_release). */
int aw_json(const char* json, lean_object** value, const char** msg, size_t* len) {
    int e = enter(); if (e) return e;
    lean_object* v;
    if (!except_ok(aw_lean_json(lean_mk_string(json)), &v, msg, len)) return panicked ? 2 : 1;
    if (panicked) { lean_dec(v); return 2; }
    *value = v;
    return 0;
}

/* aw_handle on a request whose input's policy is the JSON value `policy` (borrowed). */
int aw_handle_with(lean_object* policy, const char* line, const char** answer, size_t* len) {
    int e = enter(); if (e) return e;
    lean_inc(policy);
    lean_object* r = aw_lean_handle_with(policy, lean_mk_string(line));
    *answer = keep(r, len);
    return panicked ? 2 : 0;
}

int aw_policy(const char* json, lean_object** policy, const char** msg, size_t* len) {
    int e = enter(); if (e) return e;
    lean_object* v;
    if (!except_ok(aw_lean_policy(lean_mk_string(json)), &v, msg, len)) return panicked ? 2 : 1;
    if (panicked) { lean_dec(v); return 2; }
    *policy = v;
    return 0;
}

int aw_state(const char* json, lean_object** state, const char** msg, size_t* len) {
    int e = enter(); if (e) return e;
    lean_object* v;
    if (!except_ok(aw_lean_state(lean_mk_string(json)), &v, msg, len)) return panicked ? 2 : 1;
    if (panicked) { lean_dec(v); return 2; }
    *state = v;
    return 0;
}

/* On success *next is the state after the call (a new object) and *answer the verdict's text. */
int aw_decide(lean_object* policy, lean_object* state, const char* call, lean_object** next,
              const char** answer, size_t* len) {
    int e = enter(); if (e) return e;
    lean_object* pair;
    lean_inc(policy); lean_inc(state);
    if (!except_ok(aw_lean_decide(policy, state, lean_mk_string(call)), &pair, answer, len)) return panicked ? 2 : 1;
    lean_object* s = lean_ctor_get(pair, 0);
    lean_object* a = lean_ctor_get(pair, 1);
    lean_inc(s); lean_inc(a); lean_dec(pair);
    *answer = keep(a, len);
    if (panicked) { lean_dec(s); return 2; }
    *next = s;
    return 0;
}

int aw_observe(lean_object* policy, lean_object* state, size_t id, int ok, const char* value,
               lean_object** next, const char** msg, size_t* len) {
    int e = enter(); if (e) return e;
    lean_object* v;
    lean_inc(policy); lean_inc(state);
    if (!except_ok(aw_lean_observe(policy, state, id, (uint8_t)(ok != 0), lean_mk_string(value)), &v, msg, len))
        return panicked ? 2 : 1;
    if (panicked) { lean_dec(v); return 2; }
    *next = v;
    return 0;
}

/* The state slot: *slot holds one reference to the caller's current state (or NULL). aw_slot_set puts
   `v` there (adding a reference to it) and drops the reference to what was there. aw_decide_at and
   aw_observe_at replace the slot's state by the next one only on success; on any fault the slot keeps
   the state it had. The call and the verdict are in InProc.lean's positional forms. */
void aw_slot_set(lean_object** slot, lean_object* v) {
    if (v != NULL) lean_inc(v);
    if (*slot != NULL) lean_dec(*slot);
    *slot = v;
}

int aw_decide_at(lean_object* policy, lean_object** slot, const char* call, const char** answer, size_t* len) {
    int e = enter(); if (e) return e;
    if (*slot == NULL) return 3;
    lean_object* pair;
    lean_inc(policy); lean_inc(*slot);
    if (!except_ok(aw_lean_decide_pos(policy, *slot, lean_mk_string(call)), &pair, answer, len)) return panicked ? 2 : 1;
    lean_object* s = lean_ctor_get(pair, 0);
    lean_object* a = lean_ctor_get(pair, 1);
    lean_inc(s); lean_inc(a); lean_dec(pair);
    *answer = keep(a, len);
    if (panicked) { lean_dec(s); return 2; }
    lean_dec(*slot);
    *slot = s;
    return 0;
}

/* `value` NULL: the outcome's value is null (the caller did not read the result). */
int aw_observe_at(lean_object* policy, lean_object** slot, size_t id, int ok, const char* value,
                  const char** msg, size_t* len) {
    int e = enter(); if (e) return e;
    if (*slot == NULL) return 3;
    lean_object* v;
    lean_inc(policy); lean_inc(*slot);
    if (value == NULL) {
        v = aw_lean_observe_null(policy, *slot, id, (uint8_t)(ok != 0));
    } else if (!except_ok(aw_lean_observe(policy, *slot, id, (uint8_t)(ok != 0), lean_mk_string(value)), &v, msg, len)) {
        return panicked ? 2 : 1;
    }
    if (panicked) { lean_dec(v); return 2; }
    lean_dec(*slot);
    *slot = v;
    return 0;
}

int aw_state_json(lean_object* state, const char** answer, size_t* len) {
    int e = enter(); if (e) return e;
    lean_inc(state);
    *answer = keep(aw_lean_state_json(state), len);
    return panicked ? 2 : 0;
}

int aw_trace_length(lean_object* state, size_t* out) {
    int e = enter(); if (e) return e;
    lean_inc(state);
    *out = aw_lean_trace_length(state);
    return panicked ? 2 : 0;
}

int aw_parse_agrees(const char* s, int* out) {
    int e = enter(); if (e) return e;
    *out = aw_lean_parse_agrees(lean_mk_string(s));
    return panicked ? 2 : 0;
}

int aw_panic_probe(const char* s, const char** answer, size_t* len) {
    int e = enter(); if (e) return e;
    *answer = keep(aw_lean_panic_probe(lean_mk_string(s)), len);
    return panicked ? 2 : 0;
}
#ifdef __cplusplus
}
#endif
