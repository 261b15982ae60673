import AgentWarrant.Spec.Revision.ArgCoverJson
import AgentWarrant.Spec.Revision.ListLemmas
import AgentWarrant.Thm.Revision.GlobFuel
import AgentWarrant.Thm.Oracle.Keys
/-! The partition for equality against array and object constants (`Spec/Revision/ArgCoverJson.lean`)
is exact on the values the oracle judges (Agenra Sections 1 and 7.1):

* `jeqKind`: a value `jeq` to another has its kind (array, object);
* `jeqClass`: a judged value equal to a judged constant `c` agrees with `c` on `jeq` against every
  value (`jeq` decides `JEq` on judged values, and `JEq` is an equivalence there:
  `Oracle.jeqEquivOnJudged`);
* `jsonRepExact`: every judged array or object agrees, on `jeq` against every constant of `cs` (each
  judged), with a representative of `jsonReps cs` of its own kind, when `jsonRepsOk cs` holds;
* `jsonRepsOkTrue`: `jsonRepsOk` never fails (the fresh array is longer than every array constant, the
  fresh object's one name longer than every name of every object constant);
* `eqJsonLit`, `eqJsonExact`: the literal `eqJsonHolds c` is `jeq · c` on an admitted value when `c` is
  admitted, and every array or object, admitted or not, agrees over all the constants, admitted or not,
  with a representative of its kind (the decision's `repsExact` in `Thm/Revision/ArgCover.lean` uses it).
The hypothesis that the value is judged is needed, not a convenience: `jeq` is an equivalence on judged
values only, and an object naming one key twice is `jeq` to two judged objects that are not `jeq` to each
other, a vector no representative has (`jsonRepNeedsJudged`). A coverage theorem built on `jeq`
itself would therefore need every valuation judged; built on `eqJsonHolds`, it needs the call's values
admitted only where the monitor's `jeq` is read as the literal. -/
namespace AgentWarrant.Revision.ArgCover
open Lean AgentWarrant AgentWarrant.Monitor.Full AgentWarrant.Oracle

theorem boolEq : ∀ {a b : Bool}, (a = true → b = true) → (b = true → a = true) → a = b
  | true, true, _, _ => rfl
  | false, false, _, _ => rfl
  | true, false, h, _ => by cases h rfl
  | false, true, _, h => by cases h rfl

theorem anyBFalse {p : α → Bool} {x : α} : ∀ {l : List α}, anyB p l = false → x ∈ l → p x = false
  | [], _, h => nomatch h
  | y :: l, h, hx => by
    cases hp : p x with
    | false => rfl
    | true =>
      have t : anyB p (y :: l) = true := anyBIntro hx hp
      rw [h] at t
      cases t

theorem notTrue : ∀ {b : Bool}, (!b) = true → b = false
  | false, _ => rfl
  | true, h => by cases h

theorem jeqKind {x c : Json} (h : jeq x c = true) : isArrJ x = isArrJ c ∧ isObjJ x = isObjJ c := by
  have e := jeqFSound jsonFuel x c h
  cases e <;> exact ⟨rfl, rfl⟩

/-- A judged value equal to a judged constant agrees with the constant on equality to anything. -/
theorem jeqClass {x c : Json} (hx : Judged x) (hc : Judged c) (h : jeq x c = true) (d : Json) :
    jeq x d = jeq c d := by
  have exc : JEq x c := jeqFSound jsonFuel x c h
  have ecx : JEq c x := jeqSymmetric exc hx.2 hc.2
  apply boolEq
  · intro hd
    exact ((jeqEquivOnJudged.2.2.2 c d hc).2 (jeqTransitive ecx d (jeqFSound jsonFuel x d hd)))
  · intro hd
    exact ((jeqEquivOnJudged.2.2.2 x d hx).2 (jeqTransitive exc d (jeqFSound jsonFuel c d hd)))

theorem freshFalse {cs : List Json} (hok : jsonRepsOk cs = true) {d : Json} (hd : d ∈ cs) :
    jeq (freshArr cs) d = false ∧ jeq (freshObj cs) d = false := by
  have ⟨a, o⟩ := andT (allBElim hok d hd)
  exact ⟨notTrue a, notTrue o⟩

/-- Every judged array or object agrees, on equality to every constant, with a representative of its
kind. -/
theorem jsonRepExact (cs : List Json) (hok : jsonRepsOk cs = true) (hcs : ∀ c, c ∈ cs → Judged c)
    (x : Json) (hx : Judged x) (hk : (isArrJ x || isObjJ x) = true) :
    ∃ r, r ∈ jsonReps cs ∧ isArrJ r = isArrJ x ∧ isObjJ r = isObjJ x ∧ ∀ d, d ∈ cs → jeq x d = jeq r d := by
  cases hn : anyB (fun c => jeq x c) cs with
  | true =>
    have ⟨c, hc, ec⟩ := anyBElim hn
    have ⟨ka, ko⟩ := jeqKind ec
    exact ⟨c, AgentWarrant.memAppL _ hc, ka.symm, ko.symm, fun d _ => jeqClass hx (hcs c hc) ec d⟩
  | false =>
    cases x with
    | arr a =>
      exact ⟨freshArr cs, AgentWarrant.memAppR _ cs (Mem.head _), rfl, rfl,
        fun d hd => by rw [anyBFalse hn hd, (freshFalse hok hd).1]⟩
    | obj kvs =>
      exact ⟨freshObj cs, AgentWarrant.memAppR _ cs (Mem.tail _ (Mem.head _)), rfl, rfl,
        fun d hd => by rw [anyBFalse hn hd, (freshFalse hok hd).2]⟩
    | null => cases hk
    | bool _ => cases hk
    | num _ => cases hk
    | str _ => cases hk

-- the fresh values are fresh ------------------------------------------------------------------------

theorem lenNulls : ∀ (n : Nat), List.length (nullsN n) = n
  | 0 => rfl
  | n + 1 => by
    show List.length (Json.null :: nullsN n) = n + 1
    rw [List.length_cons, lenNulls n]

theorem arrLenLe {c : Json} : ∀ {cs : List Json}, c ∈ cs → arrLen c ≤ sumArrLen cs
  | _ :: cs, Mem.head _ => Nat.leAddRight _ _
  | d :: cs, Mem.tail _ h => Nat.leTrans (arrLenLe h) (Nat.leAddLeft _ _)

theorem lenJoin {x : List Char} : ∀ {ls : List (List Char)}, x ∈ ls → List.length x ≤ List.length ls.join
  | _ :: ls, Mem.head _ => by
    show List.length x ≤ List.length (x ++ ls.join)
    rw [Revision.GlobFuel.fuLenApp]
    exact Nat.leAddRight _ _
  | y :: ls, Mem.tail _ h => by
    show List.length x ≤ List.length (y ++ ls.join)
    rw [Revision.GlobFuel.fuLenApp]
    exact Nat.leTrans (lenJoin h) (Nat.leAddLeft _ _)

theorem keyLe {c : Json} {kvs : Std.RBNode String (fun _ => Json)} {k : String} {v : Json} : ∀ {cs : List Json}, c ∈ cs → c = Json.obj kvs →
    (k, v) ∈ pairs kvs → List.length k.data ≤ List.length (allKeyChars cs)
  | _ :: cs, Mem.head _, e, hm => by
    show List.length k.data ≤ List.length (objKeyChars c ++ allKeyChars cs)
    rw [Revision.GlobFuel.fuLenApp, e]
    refine Nat.leTrans ?_ (Nat.leAddRight _ _)
    exact lenJoin (AgentWarrant.memMapOf (fun p => p.1.toList) hm)
  | d :: cs, Mem.tail _ h, e, hm => by
    show List.length k.data ≤ List.length (objKeyChars d ++ allKeyChars cs)
    rw [Revision.GlobFuel.fuLenApp]
    exact Nat.leTrans (keyLe h e hm) (Nat.leAddLeft _ _)

theorem freshKeyNot {cs : List Json} {c : Json} {kvs : Std.RBNode String (fun _ => Json)} (hc : c ∈ cs)
    (e : c = Json.obj kvs) : lookupK (freshKey cs) (pairs kvs) = none := by
  cases h : lookupK (freshKey cs) (pairs kvs) with
  | none => rfl
  | some v =>
    have hl := keyLe hc e (lookupKSome h)
    have t : List.length (freshKey cs).data = List.length (allKeyChars cs) + 1 := List.length_cons _ _
    rw [t] at hl
    exact absurd hl (Nat.notSuccLeSelf _)

theorem freshArrNe (cs : List Json) (c : Json) (hc : c ∈ cs) : jeq (freshArr cs) c = false := by
  cases c with
  | arr a =>
    have hl : List.length a.data ≤ sumArrLen cs := arrLenLe hc
    show (decide (List.length (nullsN (sumArrLen cs + 1)) = List.length a.data) && _) = false
    rw [lenNulls]
    have ne : ¬ (sumArrLen cs + 1 = List.length a.data) := fun e => by
      rw [← e] at hl
      exact Nat.notSuccLeSelf _ hl
    rw [decideEqFalse ne]
    rfl
  | null => rfl
  | bool _ => rfl
  | num _ => rfl
  | str _ => rfl
  | obj _ => rfl

theorem freshObjNe (cs : List Json) (c : Json) (hc : c ∈ cs) : jeq (freshObj cs) c = false := by
  cases c with
  | obj kvs =>
    have hn := freshKeyNot hc rfl
    show (decide (List.length [(freshKey cs, Json.null)] = List.length (pairs kvs)) &&
      allB (fun p => match lookupK p.1 (pairs kvs) with
        | some w => jeqF 99999 p.2 w
        | none => false) [(freshKey cs, Json.null)]) = false
    have e : allB (fun p => match lookupK p.1 (pairs kvs) with
        | some w => jeqF 99999 p.2 w
        | none => false) [(freshKey cs, Json.null)] = false := by
      show (match (match lookupK (freshKey cs) (pairs kvs) with
        | some w => jeqF 99999 Json.null w
        | none => false) with
        | true => true
        | false => false) = false
      rw [hn]
    rw [e]
    cases decide (List.length [(freshKey cs, Json.null)] = List.length (pairs kvs)) <;> rfl
  | null => rfl
  | bool _ => rfl
  | num _ => rfl
  | str _ => rfl
  | arr _ => rfl

/-- The freshness check never fails. -/
theorem jsonRepsOkTrue (cs : List Json) : jsonRepsOk cs = true :=
  allBIntro (fun c hc => by rw [freshArrNe cs c hc, freshObjNe cs c hc]; rfl)

-- why the values must be judged --------------------------------------------------------------------

/-- A one-name node with a null value. -/
def nodeN (k : String) (l r : Std.RBNode String (fun _ => Json)) : Std.RBNode String (fun _ => Json) :=
  Std.RBNode.node Std.Rbcolor.black l k Json.null r

def leafN : Std.RBNode String (fun _ => Json) := Std.RBNode.leaf

/-- An object naming `k` twice (an RB map no parser builds, and the oracle's name check refuses). -/
def dupK : Json := Json.obj (nodeN "k" (nodeN "k" leafN leafN) leafN)

def objKM : Json := Json.obj (nodeN "k" leafN (nodeN "m" leafN leafN))

def objKN : Json := Json.obj (nodeN "k" leafN (nodeN "n" leafN leafN))

theorem judgedTwoNames (m : String) (hm : decide ("k" = m) = false) :
    Judged (Json.obj (nodeN "k" leafN (nodeN m leafN leafN))) := by
  have vals : ∀ k v, (k, v) ∈ pairs (nodeN "k" leafN (nodeN m leafN leafN)) → v = Json.null := fun k v h => by
    cases h with
    | head _ => rfl
    | tail _ h => cases h with
      | head _ => rfl
      | tail _ h => cases h
  have nd : NodupK (pairs (nodeN "k" leafN (nodeN m leafN leafN))) := by
    show lookupK m [("k", Json.null)] = none ∧ (lookupK "k" [] = none ∧ True)
    have ne : ¬ (m = "k") := fun e => by rw [e, decideEqTrue (rfl : "k" = "k")] at hm; cases hm
    exact ⟨ifNeg ne, rfl, trivial⟩
  refine ⟨⟨1, Depth.obj 0 _ (fun k v h => by rw [vals k v h]; exact Depth.null 0), ?_⟩,
    KeysDistinct.obj _ nd (fun k v h => by rw [vals k v h]; exact KeysDistinct.null)⟩
  exact Nat.succLeSucc (Nat.succLeSucc (Nat.zeroLe _))

/-- `jsonRepExact` needs the value judged even when the constants are: an object naming `k` twice is
`jeq` to both of two judged objects that are not `jeq` to each other, a vector no representative has
(the judged constants and the fresh values each answer `false` on one of them). -/
theorem jsonRepNeedsJudged : Judged objKM ∧ Judged objKN ∧ ∃ x, (isArrJ x || isObjJ x) = true ∧
    ¬ ∃ r, r ∈ jsonReps [objKM, objKN] ∧ ∀ d, d ∈ [objKM, objKN] → jeq x d = jeq r d := by
  refine ⟨judgedTwoNames "m" rfl, judgedTwoNames "n" rfl, dupK, rfl, fun ⟨r, hr, h⟩ => ?_⟩
  have hM := h objKM (Mem.head _)
  have hN := h objKN (Mem.tail _ (Mem.head _))
  have xM : jeq dupK objKM = true := rfl
  have xN : jeq dupK objKN = true := rfl
  rw [xM] at hM
  rw [xN] at hN
  cases hr with
  | head _ =>
    have e : jeq objKM objKN = false := rfl
    rw [e] at hN; cases hN
  | tail _ hr => cases hr with
    | head _ =>
      have e : jeq objKN objKM = false := rfl
      rw [e] at hM; cases hM
    | tail _ hr => cases hr with
      | head _ => rw [freshArrNe _ objKM (Mem.head _)] at hM; cases hM
      | tail _ hr => cases hr with
        | head _ => rw [freshObjNe _ objKM (Mem.head _)] at hM; cases hM
        | tail _ hr => cases hr

-- a literal exact on every value -------------------------------------------------------------------

theorem admittedJudged {x : Json} (h : admitted x = true) : Judged x :=
  have ⟨hd, hk⟩ := andT h
  ⟨depthWithinSound hd, keysAtMostSound jsonFuel x hk⟩

/-- On an admitted value the literal of an admitted constant is the monitor's equality. -/
theorem eqJsonLit (c x : Json) (hc : admitted c = true) (h : admitted x = true) : jeq x c = eqJsonHolds c x := by
  show jeq x c = (admitted c && admitted x && jeq x c)
  rw [hc, h]
  rfl

theorem andFalseR : ∀ (b : Bool), (b && false) = false
  | true => rfl
  | false => rfl

theorem andTrueR' : ∀ (b : Bool), (b && true) = b
  | true => rfl
  | false => rfl

/-- Every array or object agrees, on the literal of every constant of `cs`, with a representative of its
kind: no hypothesis on the value or the constants (an unadmitted one reads false on every literal, as a
fresh value does; an unadmitted constant's literal is false everywhere). -/
theorem eqJsonExact (cs : List Json) (x : Json) (hk : (isArrJ x || isObjJ x) = true) :
    ∃ r, r ∈ jsonReps cs ∧ isArrJ r = isArrJ x ∧ isObjJ r = isObjJ x ∧
      ∀ d, d ∈ cs → eqJsonHolds d x = eqJsonHolds d r := by
  have fresh : ∃ r, r ∈ jsonReps cs ∧ isArrJ r = isArrJ x ∧ isObjJ r = isObjJ x ∧ ∀ d, d ∈ cs → jeq r d = false := by
    cases x with
    | arr a => exact ⟨freshArr cs, AgentWarrant.memAppR _ cs (Mem.head _), rfl, rfl, freshArrNe cs⟩
    | obj kvs => exact ⟨freshObj cs, AgentWarrant.memAppR _ cs (Mem.tail _ (Mem.head _)), rfl, rfl, freshObjNe cs⟩
    | null => cases hk
    | bool _ => cases hk
    | num _ => cases hk
    | str _ => cases hk
  have ⟨f, hf, fa, fo, fne⟩ := fresh
  have toFresh : (∀ d, d ∈ cs → eqJsonHolds d x = false) → ∃ r, r ∈ jsonReps cs ∧ isArrJ r = isArrJ x ∧
      isObjJ r = isObjJ x ∧ ∀ d, d ∈ cs → eqJsonHolds d x = eqJsonHolds d r := fun hx =>
    ⟨f, hf, fa, fo, fun d hd => by
      rw [hx d hd]
      show false = (admitted d && admitted f && jeq f d)
      rw [fne d hd, andFalseR]⟩
  cases ha : admitted x with
  | false => exact toFresh (fun d _ => by
      show (admitted d && admitted x && jeq x d) = false
      rw [ha, andFalseR]
      rfl)
  | true =>
    cases hn : anyB (fun c => admitted c && jeq x c) cs with
    | false => exact toFresh (fun d hd => by
        show (admitted d && admitted x && jeq x d) = false
        rw [ha, andTrueR']
        exact anyBFalse (p := fun c => admitted c && jeq x c) hn hd)
    | true =>
      have ⟨c, hc, e⟩ := anyBElim hn
      have ⟨ac, ec⟩ := andT e
      have ⟨ka, ko⟩ := jeqKind ec
      exact ⟨c, AgentWarrant.memAppL _ hc, ka.symm, ko.symm, fun d _ => by
        show (admitted d && admitted x && jeq x d) = (admitted d && admitted c && jeq c d)
        rw [ha, ac, jeqClass (admittedJudged ha) (admittedJudged ac) ec d]⟩

end AgentWarrant.Revision.ArgCover
