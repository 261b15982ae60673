import AgentWarrant.Spec.Edits.Deletion
/-! The four-part record as a fact graph with one fact per entry (*When Can Agents Safely
Checkpoint, Fork, Restore, and Merge?*, Appendix A-F: the record's parts, the recursive views and
Lemma 11; Appendix A-G: the `Drop_ra` pair). Theorems in `Thm/Edits/Record.lean`.

`recGraph` (`Spec/Edits/Deletion.lean`) presents each part, and `q_act` as a whole, as one fact, which
is too coarse for `Drop_ra`: the fixed `Drop_ra` erases only the creator calls' entries of `q_act`.
Here the record of `Spec/Edits/Information.lean` is one fact per recorded item, listed in a
dependency order:

- `ℓ` (I) first, then P, the policy state and the queued actions (E), and the active version (C);
- for each authorization record three facts: the record with its creator call (E); which action it
  names (E, of the authorization → action kind), referring to the record; its label, a value
  computed from the action and `ℓ` (E);
- for each workflow call two facts: the call (I), and which action it refers to, its `q_act` entry,
  referring to the call, of the creator call's action kind when the call created an authorization
  record (the data that would reconstruct the record's action), of the call → action kind otherwise.

A graph is built from a list of unnamed facts (`Pre`) whose dependencies point at the first fact or
the fact just before (`Ref`); `graphOf` names the facts by their position. Every such graph whose
first fact depends on nothing is acyclic with distinct names (`graphOfWellFormed`), so `delChar`
and Lemma 11 apply to it directly.

Choices where the paper is silent:
- an authorization's label is recorded as depending on `ℓ` only, not on the action it names, as each
  call's label is in `recGraph`: the fixed `Drop_ra` keeps the label (the authorization sequence stays
  visible, as the paper's `Drop_ra` pair requires), which a deletion closed under "depends on the
  action" would remove;
- calls, actions and creators named inside a value are identifiers (renamed with the value), not
  dependencies: a `q_act` entry refers to its call's fact, an authorization's action to the
  authorization's fact, and nothing else refers across parts, so `Keep_J` omitting P or C deletes
  no fact of another part. -/
namespace AgentWarrant.Edits
open AgentWarrant

/-- Where a fact's dependency is: the graph's first fact, or the fact just before it. -/
inductive Ref where
  | first
  | prev

/-- A fact before it is named: its kind, value and where its dependencies are. -/
structure Pre (α : Type) where
  kind : Kind
  val : α
  refs : List Ref

def resolveRef (k : Nat) : Ref → Nat
  | Ref.first => 0
  | Ref.prev => Nat.pred k

/-- The facts named by their position, counted from `k`. -/
def nameFrom : Nat → List (Pre α) → Graph α
  | _, [] => []
  | k, p :: L => ⟨k, p.kind, p.val, List.map (resolveRef k) p.refs⟩ :: nameFrom (k + 1) L

def graphOf (L : List (Pre α)) : Graph α := nameFrom 0 L

/-- A fact's dependencies are all kept: `first` always (the first fact is one of a kept kind), `prev`
when the fact before was kept (`pk`). -/
def refsOk (pk : Bool) (p : Pre α) : Bool := allB (fun r => match r with
  | Ref.first => true
  | Ref.prev => pk) p.refs

/-- Every fact's dependencies are kept, so deletion removes exactly the facts of omitted kinds. -/
def okB (omit : Kind → Bool) : Bool → List (Pre α) → Bool
  | _, [] => true
  | pk, p :: L => refsOk pk p && okB omit (!omit p.kind) L

/-- The values of the facts a kind predicate keeps. -/
def keepVals (omit : Kind → Bool) : List (Pre α) → List α
  | [] => []
  | p :: L => match omit p.kind with
    | true => keepVals omit L
    | false => p.val :: keepVals omit L

/-- The record's items. -/
inductive RVal where
  | lab (x : List Nat)
  | p (x : PartP)
  | policy (x : List (List Nat))
  | queued (x : List Nat)
  | c (x : PartC)
  | auth (creator : Nat)
  | authAct (d : Nat)
  | authLab (l : Nat)
  | call (x : Nat)
  | callAct (d : Nat)

def plainK (x : Part) : Kind := ⟨x, Link.plain⟩

def authPres (lab : List Nat) : List AuthRec → List (Pre RVal)
  | [] => []
  | r :: rs => ⟨plainK Part.E, RVal.auth r.creator, []⟩ :: ⟨⟨Part.E, Link.authAct⟩, RVal.authAct r.action, [Ref.prev]⟩ ::
      ⟨plainK Part.E, RVal.authLab (nth lab r.action), [Ref.first]⟩ :: authPres lab rs

/-- The kind of call `n`'s `q_act` entry. -/
def entryKind (auths : List AuthRec) (n : Nat) : Kind := match isCreator auths n with
  | true => ⟨Part.I, Link.creatorAct⟩
  | false => ⟨Part.I, Link.callAct⟩

def callPres (auths : List AuthRec) : Nat → List Nat → List (Pre RVal)
  | _, [] => []
  | n, d :: ds => ⟨plainK Part.I, RVal.call n, []⟩ :: ⟨entryKind auths n, RVal.callAct d, [Ref.prev]⟩ :: callPres auths (n + 1) ds

def recordPres (V : Record) : List (Pre RVal) :=
  ⟨plainK Part.I, RVal.lab V.i.lab, []⟩ :: ⟨plainK Part.P, RVal.p V.p, []⟩ :: ⟨plainK Part.E, RVal.policy V.e.policy, []⟩ ::
    ⟨plainK Part.E, RVal.queued V.e.queued, []⟩ :: ⟨plainK Part.C, RVal.c V.c, []⟩ ::
    (authPres V.i.lab V.e.auths ++ callPres V.e.auths 0 V.i.act)

/-- The record as a fact graph, one fact per item. -/
def recordGraph (V : Record) : Graph RVal := graphOf (recordPres V)

/-! Reading a `Drop_ra` view back from the values of a graph, in order. -/

def peekAct : List RVal → Option Nat
  | RVal.callAct d :: _ => some d
  | _ => none

def peekLab : List RVal → Nat
  | RVal.authLab l :: _ => l
  | _ => 0

/-- Each call with its action, when the graph still has it. -/
def readCalls : List RVal → List (Option Nat)
  | RVal.call _ :: G => peekAct G :: readCalls G
  | RVal.callAct _ :: G => readCalls G
  | RVal.auth _ :: G => readCalls G
  | RVal.authAct _ :: G => readCalls G
  | RVal.authLab _ :: G => readCalls G
  | _ => []

/-- Each authorization record's creator and label, up to the first call. -/
def readAuths : List RVal → List (Nat × Nat)
  | RVal.auth cr :: G => (cr, peekLab G) :: readAuths G
  | RVal.authAct _ :: G => readAuths G
  | RVal.authLab _ :: G => readAuths G
  | _ => []

def raViewOfVals : List RVal → PartP × List (Option Nat) × List Nat × List (Nat × Nat) × List (List Nat) × List Nat × PartC
  | RVal.lab l :: RVal.p x :: RVal.policy y :: RVal.queued z :: RVal.c w :: G =>
    (x, readCalls G, l, readAuths G, y, z, w)
  | _ => (⟨[]⟩, [], [], [], [], [], ⟨0⟩)

/-- The `Drop_ra` view a graph shows. -/
def raViewOf (G : Graph RVal) : PartP × List (Option Nat) × List Nat × List (Nat × Nat) × List (List Nat) × List Nat × PartC :=
  raViewOfVals (List.map Fact.val G)

/-- `π` on the record's items (fact names, fixed by position, stay). -/
def renRV (π : Ren) : RVal → RVal
  | RVal.lab x => RVal.lab (reindex π.act (fun d => d) x)
  | RVal.p x => RVal.p (renP π x)
  | RVal.policy x => RVal.policy x
  | RVal.queued x => RVal.queued (List.map π.act.f x)
  | RVal.c x => RVal.c (renC π x)
  | RVal.auth cr => RVal.auth (π.call.f cr)
  | RVal.authAct d => RVal.authAct (π.act.f d)
  | RVal.authLab l => RVal.authLab l
  | RVal.call x => RVal.call (π.call.f x)
  | RVal.callAct d => RVal.callAct (π.act.f d)

def renRG (π : Ren) (G : Graph RVal) : Graph RVal := renGraph Perm.id (renRV π) G

end AgentWarrant.Edits
