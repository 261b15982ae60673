import AgentWarrant.Thm.Monitor.Json
import AgentWarrant.Oracle.Depth
/-! The oracle's nesting check (`Oracle/Depth.lean`) means what it says, and so JSON equality is
decided on every value a judgment is given.

`depthAtMostIff`: `depthAtMost n v` decides `Depth n v`. `depthWithinIff`: `depthWithin f v` holds
exactly when `v` nests less deep than `f`. `guardedDepth`: a judgment run through `guarded` (the
oracle's request handler runs every judgment so, `Oracle/Main.lean`) has answered only if its input
nests less deep than `jsonFuel`, and then `jeq` decides `JEq` on that input against every value
(`guardedJeq`), and on every element of it at any position (`depthArrElem`, `depthObjElem`: the
bound is inherited downwards). `admitDepthOk` is the same for the in-process monitor path's texts.
What is not stated: which subvalues each judgment compares (the statement covers every value a
judgment can reach by descending its input, and values built from them are the judgment's own). -/
namespace AgentWarrant.Oracle
open Lean AgentWarrant.Monitor.Full

theorem depthAtMostSound : ∀ (n : Nat) (v : Json), depthAtMost n v = true → Depth n v
  | 0, Json.null, _ => Depth.null 0
  | 0, Json.bool b, _ => Depth.bool 0 b
  | 0, Json.num x, _ => Depth.num 0 x
  | 0, Json.str s, _ => Depth.str 0 s
  | 0, Json.arr _, h => by cases h
  | 0, Json.obj _, h => by cases h
  | n + 1, Json.null, _ => Depth.null (n + 1)
  | n + 1, Json.bool b, _ => Depth.bool (n + 1) b
  | n + 1, Json.num x, _ => Depth.num (n + 1) x
  | n + 1, Json.str s, _ => Depth.str (n + 1) s
  | n + 1, Json.arr a, h => Depth.arr n a (fun x hx => depthAtMostSound n x (allBElim h x hx))
  | n + 1, Json.obj kvs, h => Depth.obj n kvs (fun k v hx => depthAtMostSound n v (allBElim h (k, v) hx))

theorem depthAtMostComplete {n : Nat} {v : Json} (h : Depth n v) : depthAtMost n v = true := by
  induction h with
  | null n => cases n <;> rfl
  | bool n b => cases n <;> rfl
  | num n x => cases n <;> rfl
  | str n s => cases n <;> rfl
  | arr n a _ ih => exact allBIntro (fun x hx => ih x hx)
  | obj n kvs _ ih => exact allBIntro (fun p hp => by cases p with | mk k v => exact ih k v hp)

theorem depthAtMostIff (n : Nat) (v : Json) : depthAtMost n v = true ↔ Depth n v :=
  ⟨depthAtMostSound n v, depthAtMostComplete⟩

/-- The check holds exactly for the values nesting less deep than the bound. -/
theorem depthWithinIff : ∀ (f : Nat) (v : Json), depthWithin f v = true ↔ ∃ n, Depth n v ∧ n < f
  | 0, v => ⟨fun h => (by cases h), fun ⟨n, _, hn⟩ => (by cases hn)⟩
  | f + 1, v => ⟨fun h => ⟨f, depthAtMostSound f v h, Nat.leRefl (f + 1)⟩,
      fun ⟨n, hd, hn⟩ => depthAtMostComplete (depthMono hd f (Nat.leOfSuccLeSucc hn))⟩

theorem depthWithinSound {f : Nat} {v : Json} (h : depthWithin f v = true) : ∃ n, Depth n v ∧ n < f :=
  (depthWithinIff f v).1 h

/-- What passes the check has `jeq` decide `JEq` against every value. -/
theorem depthWithinJeq {v : Json} (h : depthWithin jsonFuel v = true) (b : Json) : jeq v b = true ↔ JEq v b :=
  match depthWithinSound h with
  | ⟨_, hd, hn⟩ => jeqIff hd hn b

/-- A judgment run through `guarded` answers only on an input nesting less deep than `jsonFuel`,
and then answers what the judgment answers. -/
theorem guardedDepth {f : Json → Except String Json} {input : Json} {out : Json}
    (h : guarded f input = Except.ok out) : (∃ n, Depth n input ∧ n < jsonFuel) ∧ f input = Except.ok out := by
  cases hd : depthWithin jsonFuel input with
  | true =>
    have e : guarded f input = f input := by simp [guarded, hd]
    rw [e] at h
    exact ⟨depthWithinSound hd, h⟩
  | false =>
    have e : guarded f input = Except.error depthError := by simp [guarded, hd]
    rw [e] at h
    cases h

/-- A deeper input is refused, whatever the judgment. -/
theorem guardedRefuses {f : Json → Except String Json} {input : Json} (h : depthWithin jsonFuel input = false) :
    guarded f input = Except.error depthError := by simp [guarded, h]

/-- Equality is decided on the input of every judgment that answered. -/
theorem guardedJeq {f : Json → Except String Json} {input out : Json} (h : guarded f input = Except.ok out)
    (b : Json) : jeq input b = true ↔ JEq input b :=
  match (guardedDepth h).1 with
  | ⟨_, hd, hn⟩ => jeqIff hd hn b

/-- The bound is inherited by an array's elements... -/
theorem depthArrElem {n : Nat} {a : Array Json} {x : Json} (h : Depth n (Json.arr a)) (hx : x ∈ a.data) :
    ∃ m, Depth m x ∧ m < n := by
  cases h with
  | arr m _ hm => exact ⟨m, hm x hx, Nat.leRefl (m + 1)⟩

/-- ... and an object's values, so every value reached by descending an admitted input nests less
deep than `jsonFuel` and `jeq` decides `JEq` on it. -/
theorem depthObjElem {n : Nat} {kvs : Std.RBNode String (fun _ => Json)} {k : String} {v : Json}
    (h : Depth n (Json.obj kvs)) (hx : (k, v) ∈ pairs kvs) : ∃ m, Depth m v ∧ m < n := by
  cases h with
  | obj m _ hm => exact ⟨m, hm k v hx, Nat.leRefl (m + 1)⟩

theorem admitDepthOk {v w : Json} (h : admitDepth v = Except.ok w) : w = v ∧ ∃ n, Depth n v ∧ n < jsonFuel := by
  cases hd : depthWithin jsonFuel v with
  | true =>
    have e : admitDepth v = Except.ok v := by simp [admitDepth, hd]
    rw [e] at h
    cases h
    exact ⟨rfl, depthWithinSound hd⟩
  | false =>
    have e : admitDepth v = Except.error depthError := by simp [admitDepth, hd]
    rw [e] at h
    cases h

end AgentWarrant.Oracle
