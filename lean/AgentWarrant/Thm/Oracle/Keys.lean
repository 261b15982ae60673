import AgentWarrant.Thm.Monitor.Json
import AgentWarrant.Thm.Oracle.Depth
import AgentWarrant.Oracle.Keys
import AgentWarrant.Oracle.Fuel
import AgentWarrant.Oracle.Parse
import AgentWarrant.Oracle.FastParse
import AgentWarrant.Thm.Json.ObjLookup
/-! Matching on every value the oracle judges: distinct names, and `jeq` an equivalence there.

`keysAtMostSound`: the oracle's name check (`Oracle/Keys.lean`) implies `KeysDistinct`, distinct
names in every object at every depth. `judgedInput`: a judgment run as the request handler runs it
(`guarded` for the nesting bound, `keysGuard` for the names, `Oracle/Main.lean`) has answered only on
an input that nests less deep than `jsonFuel` and has distinct names at every depth, and both are
inherited by every element and member value (`kdArrElem`, `kdObjElem`, `depthArrElem`,
`depthObjElem`); the same check finds every object of the input a search tree (`judgedOrdered`,
`keysAtMostOrdered`), so a lookup finds every member. On such values `jeq` is reflexive, symmetric and transitive (`jeqEquivOnJudged`) and
ignores the order of an object's members (`jeqObjOrderLeft`/`Right`, for every value).
`parseFuelEnough`, `fastParseFuelEnough`: the two request parsers are total, on a fuel of the text's
length, and every larger fuel gives the same answer (`Fuel.fixStable`). -/
namespace AgentWarrant.Oracle
open Lean AgentWarrant.Monitor.Full

theorem nodupKBSound : ∀ (l : List (String × Json)), nodupKB l = true → NodupK l
  | [], _ => trivial
  | p :: ps, h => by
    cases hl : lookupK p.1 ps with
    | none =>
      have h' : nodupKB ps = true := by
        have e : nodupKB (p :: ps) = nodupKB ps := by simp [nodupKB, hl]
        rw [← e]; exact h
      exact ⟨hl, nodupKBSound ps h'⟩
    | some w =>
      have e : nodupKB (p :: ps) = false := by simp [nodupKB, hl]
      rw [e] at h; cases h

theorem keysAtMostSound : ∀ (n : Nat) (v : Json), keysAtMost n v = true → KeysDistinct v
  | 0, Json.null, _ => KeysDistinct.null
  | 0, Json.bool b, _ => KeysDistinct.bool b
  | 0, Json.num x, _ => KeysDistinct.num x
  | 0, Json.str s, _ => KeysDistinct.str s
  | 0, Json.arr _, h => by cases h
  | 0, Json.obj _, h => by cases h
  | n + 1, Json.null, _ => KeysDistinct.null
  | n + 1, Json.bool b, _ => KeysDistinct.bool b
  | n + 1, Json.num x, _ => KeysDistinct.num x
  | n + 1, Json.str s, _ => KeysDistinct.str s
  | n + 1, Json.arr a, h => KeysDistinct.arr a (fun x hx => keysAtMostSound n x (allBElim h x hx))
  | n + 1, Json.obj kvs, h => by
    have ⟨h1, h23⟩ := andT h
    have ⟨_, h2⟩ := andT h23
    exact KeysDistinct.obj kvs (nodupKBSound _ h1) (fun k v hx => keysAtMostSound n v (allBElim h2 (k, v) hx))

/-- The same check finds every object ordered, at every depth. -/
theorem keysAtMostOrdered : ∀ (n : Nat) (v : Json), keysAtMost n v = true → Json.ObjsOrdered v
  | 0, Json.null, _ => Json.ObjsOrdered.null
  | 0, Json.bool b, _ => Json.ObjsOrdered.bool b
  | 0, Json.num x, _ => Json.ObjsOrdered.num x
  | 0, Json.str s, _ => Json.ObjsOrdered.str s
  | 0, Json.arr _, h => by cases h
  | 0, Json.obj _, h => by cases h
  | n + 1, Json.null, _ => Json.ObjsOrdered.null
  | n + 1, Json.bool b, _ => Json.ObjsOrdered.bool b
  | n + 1, Json.num x, _ => Json.ObjsOrdered.num x
  | n + 1, Json.str s, _ => Json.ObjsOrdered.str s
  | n + 1, Json.arr a, h => Json.ObjsOrdered.arr a (fun x hx => keysAtMostOrdered n x (allBElim h x hx))
  | n + 1, Json.obj kvs, h => by
    have ⟨_, h23⟩ := andT h
    have ⟨h3, h2⟩ := andT h23
    exact Json.ObjsOrdered.obj kvs (Json.orderedBSound kvs h3)
      (fun k v hx => keysAtMostOrdered n v (allBElim h2 (k, v) hx))

/-- A judgment run through the name check answers only on an input with distinct names at every
depth, and then answers what the judgment answers. -/
theorem keysGuardOk {f : Json → Except String Json} {input out : Json} (h : keysGuard f input = Except.ok out) :
    KeysDistinct input ∧ f input = Except.ok out := by
  cases hk : keysAtMost jsonFuel input with
  | true =>
    have e : keysGuard f input = f input := by simp [keysGuard, hk]
    rw [e] at h
    exact ⟨keysAtMostSound jsonFuel input hk, h⟩
  | false =>
    have e : keysGuard f input = Except.error (keysError input) := by simp [keysGuard, hk]
    rw [e] at h
    cases h

theorem admitKeysOk {v w : Json} (h : admitKeys v = Except.ok w) : w = v ∧ KeysDistinct v := by
  cases hk : keysAtMost jsonFuel v with
  | true =>
    have e : admitKeys v = Except.ok v := by simp [admitKeys, hk]
    rw [e] at h
    cases h
    exact ⟨rfl, keysAtMostSound jsonFuel v hk⟩
  | false =>
    have e : admitKeys v = Except.error (keysError v) := by simp [admitKeys, hk]
    rw [e] at h
    cases h

/-- The request handler's judgments (`guarded (keysGuard f)`, `Oracle/Main.lean`) answer only on an
input that nests less deep than `jsonFuel` and has distinct names at every depth. -/
theorem judgedInput {f : Json → Except String Json} {input out : Json}
    (h : guarded (keysGuard f) input = Except.ok out) :
    (∃ n, Depth n input ∧ n < jsonFuel) ∧ KeysDistinct input ∧ f input = Except.ok out :=
  match guardedDepth h with
  | ⟨hd, hk⟩ => match keysGuardOk hk with
    | ⟨kd, hf⟩ => ⟨hd, kd, hf⟩

/-- ... and every object of such an input, at every depth, is ordered, so a lookup finds every member
(`Json.getObjValOfMem`). -/
theorem judgedOrdered {f : Json → Except String Json} {input out : Json}
    (h : guarded (keysGuard f) input = Except.ok out) : Json.ObjsOrdered input := by
  have ⟨_, hk⟩ := guardedDepth h
  cases hc : keysAtMost jsonFuel input with
  | true => exact keysAtMostOrdered jsonFuel input hc
  | false =>
    have e : keysGuard f input = Except.error (keysError input) := by simp [keysGuard, hc]
    rw [e] at hk
    cases hk

theorem admitKeysOrdered {v w : Json} (h : admitKeys v = Except.ok w) : Json.ObjsOrdered v := by
  cases hc : keysAtMost jsonFuel v with
  | true => exact keysAtMostOrdered jsonFuel v hc
  | false =>
    have e : admitKeys v = Except.error (keysError v) := by simp [admitKeys, hc]
    rw [e] at h
    cases h

/-- Distinct names are inherited by an array's elements ... -/
theorem kdArrElem {a : Array Json} {x : Json} (h : KeysDistinct (Json.arr a)) (hx : x ∈ a.data) : KeysDistinct x := by
  cases h with
  | arr _ hm => exact hm x hx

/-- ... and by an object's values. -/
theorem kdObjElem {kvs : Std.RBNode String (fun _ => Json)} {k : String} {v : Json}
    (h : KeysDistinct (Json.obj kvs)) (hx : (k, v) ∈ pairs kvs) : KeysDistinct v := by
  cases h with
  | obj _ _ hm => exact hm k v hx

/-- A value of the kind every judged input is, and every value inside one: nesting less deep than
`jsonFuel`, distinct names at every depth. -/
def Judged (v : Json) : Prop := (∃ n, Depth n v ∧ n < jsonFuel) ∧ KeysDistinct v

theorem judgedArrElem {a : Array Json} {x : Json} (h : Judged (Json.arr a)) (hx : x ∈ a.data) : Judged x :=
  match h with
  | ⟨⟨n, hd, hn⟩, kd⟩ => match depthArrElem hd hx with
    | ⟨m, hm, hmn⟩ => ⟨⟨m, hm, Nat.ltTrans hmn hn⟩, kdArrElem kd hx⟩

theorem judgedObjElem {kvs : Std.RBNode String (fun _ => Json)} {k : String} {v : Json}
    (h : Judged (Json.obj kvs)) (hx : (k, v) ∈ pairs kvs) : Judged v :=
  match h with
  | ⟨⟨n, hd, hn⟩, kd⟩ => match depthObjElem hd hx with
    | ⟨m, hm, hmn⟩ => ⟨⟨m, hm, Nat.ltTrans hmn hn⟩, kdObjElem kd hx⟩

/-- `jeq` is an equivalence on the values the oracle judges: reflexive, symmetric and transitive, and
it decides `JEq` there. -/
theorem jeqEquivOnJudged :
    (∀ a, Judged a → jeq a a = true) ∧
    (∀ a b, Judged a → Judged b → jeq a b = true → jeq b a = true) ∧
    (∀ a b c, Judged a → jeq a b = true → jeq b c = true → jeq a c = true) ∧
    (∀ a b, Judged a → (jeq a b = true ↔ JEq a b)) :=
  ⟨fun _ ⟨⟨_, hd, hn⟩, kd⟩ => jeqRefl hd hn kd,
   fun _ _ ⟨_, ka⟩ ⟨⟨_, hb, hm⟩, kb⟩ h => jeqSymm hb hm ka kb h,
   fun _ _ _ ⟨⟨_, ha, hn⟩, _⟩ h1 h2 => jeqTrans ha hn h1 h2,
   fun _ b ⟨⟨_, ha, hn⟩, _⟩ => jeqIff ha hn b⟩

/-- The request parser's fuel (the text's length) is enough: every larger fuel gives the same answer. -/
theorem parseFuelEnough (a : Array Char) (x : Parse.St) (hx : x.2 < a.size) (f : Nat) (hf : a.size ≤ f) :
    Fuel.run a.size (fun x => x.2) (Parse.stop a.size) (Parse.step a) x =
      Fuel.fixF a.size (fun x => x.2) (Parse.stop a.size) (Parse.step a) f x :=
  Fuel.runStable _ _ _ _ x hx f hf

/-- The in-process parser's fuel (the text's byte length) is enough. -/
theorem fastParseFuelEnough (s : String) (x : FastParse.St) (hx : x.2 < s.utf8ByteSize) (f : Nat)
    (hf : s.utf8ByteSize ≤ f) :
    FastParse.value s s.utf8ByteSize x =
      Fuel.fixF s.utf8ByteSize (fun x => x.2) (FastParse.stop s.utf8ByteSize) (FastParse.step s s.utf8ByteSize) f x :=
  Fuel.runStable _ _ _ _ x hx f hf

/-- The refusal names its reason. An object whose tree holds `b` before `a` (so a lookup can miss a
member) is refused as out of order, not as a repeated name ... -/
theorem keysErrorUnordered :
    keysError (Json.obj (Std.RBNode.node Std.Rbcolor.black
      (Std.RBNode.node Std.Rbcolor.red Std.RBNode.leaf "b" Json.null Std.RBNode.leaf) "a" Json.null Std.RBNode.leaf)) =
      "input: an object's names are not in search-tree order" := rfl

/-- ... and an object binding `a` twice, nested in an array, as a repeated name. -/
theorem keysErrorRepeated :
    keysError (Json.arr #[Json.obj (Std.RBNode.node Std.Rbcolor.black
      (Std.RBNode.node Std.Rbcolor.red Std.RBNode.leaf "a" Json.null Std.RBNode.leaf) "a" Json.null Std.RBNode.leaf)]) =
      "input: an object has a repeated name" := rfl

end AgentWarrant.Oracle
