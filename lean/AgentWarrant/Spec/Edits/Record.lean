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
- for each workflow call three facts: the call (I); which action it refers to, its `q_act` entry,
  referring to the call, of the creator call's action kind when the call created an authorization
  record (the data that would reconstruct the record's action), of the call → action kind otherwise;
  and the call's label, a value computed from the action and `ℓ` (I), referring to `ℓ`.

A graph is built from a list of unnamed facts (`Pre`) whose dependencies point at the first fact or
the fact just before (`Ref`); `graphOf` names the facts by their position. Every such graph whose
first fact depends on nothing is acyclic with distinct names (`graphOfWellFormed`), so `delChar`
and Lemma 11 apply to it directly.

Choices where the paper is silent:
- an authorization's label is recorded as depending on `ℓ` only, not on the action it names, and so
  is each call's label, as in `recGraph`: the fixed `Drop_ra` keeps the authorization's label (the
  authorization sequence stays visible, as the paper's `Drop_ra` pair requires) and the fixed
  `Drop_ca` each call's label, which a deletion closed under "depends on the action" would remove;
- calls, actions and creators named inside a value are identifiers (renamed with the value), not
  dependencies: a `q_act` entry refers to its call's fact, an authorization's action to the
  authorization's fact, and apart from the authorizations' labels, which refer to `ℓ`, nothing refers
  across parts, so `Keep_J` omitting P, E or C deletes no fact of another part; omitting I deletes
  the authorizations' labels with `ℓ`, which E does not contain (`PartE` holds each record's creator
  and action, not its label).

The views are read back from the values left (`viewOfRG` for `Keep_J`, `caViewOfRG` for `Drop_ca`,
`raViewOf` for `Drop_ra`): a part's fact is looked up wherever it is, `q_act` is the actions of the
`q_act` entries in order, each authorization record is its creator with the action of the fact after
it. -/
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
  | callLab (l : Nat)

def plainK (x : Part) : Kind := ⟨x, Link.plain⟩

/-- The authorization records' facts, followed by `T`. -/
def authPres (lab : List Nat) : List AuthRec → List (Pre RVal) → List (Pre RVal)
  | [], T => T
  | r :: rs, T => ⟨plainK Part.E, RVal.auth r.creator, []⟩ :: ⟨⟨Part.E, Link.authAct⟩, RVal.authAct r.action, [Ref.prev]⟩ ::
      ⟨plainK Part.E, RVal.authLab (nth lab r.action), [Ref.first]⟩ :: authPres lab rs T

/-- The kind of call `n`'s `q_act` entry. -/
def entryKind (auths : List AuthRec) (n : Nat) : Kind := match isCreator auths n with
  | true => ⟨Part.I, Link.creatorAct⟩
  | false => ⟨Part.I, Link.callAct⟩

def callPres (auths : List AuthRec) (lab : List Nat) : Nat → List Nat → List (Pre RVal)
  | _, [] => []
  | n, d :: ds => ⟨plainK Part.I, RVal.call n, []⟩ :: ⟨entryKind auths n, RVal.callAct d, [Ref.prev]⟩ ::
      ⟨plainK Part.I, RVal.callLab (nth lab d), [Ref.first]⟩ :: callPres auths lab (n + 1) ds

def recordPres (V : Record) : List (Pre RVal) :=
  ⟨plainK Part.I, RVal.lab V.i.lab, []⟩ :: ⟨plainK Part.P, RVal.p V.p, []⟩ :: ⟨plainK Part.E, RVal.policy V.e.policy, []⟩ ::
    ⟨plainK Part.E, RVal.queued V.e.queued, []⟩ :: ⟨plainK Part.C, RVal.c V.c, []⟩ ::
    authPres V.i.lab V.e.auths (callPres V.e.auths V.i.lab 0 V.i.act)

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
  | RVal.callLab _ :: G => readCalls G
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

/-! Reading the `Keep_J` and `Drop_ca` views back from the values of a graph. The parts' facts are
found wherever they are; a part is shown when its fact is (`ℓ` for I, the policy state and the
queued actions for E); `q_act` is the actions of the `q_act` entries in order, each authorization
record its creator with the action of the fact after it. -/

/-- The first value `s` picks. -/
def firstSome (s : RVal → Option β) : List RVal → Option β
  | [] => none
  | v :: G => match s v with
    | some x => some x
    | none => firstSome s G

def selP : RVal → Option PartP
  | RVal.p x => some x
  | _ => none

def selLab : RVal → Option (List Nat)
  | RVal.lab x => some x
  | _ => none

def selPolicy : RVal → Option (List (List Nat))
  | RVal.policy x => some x
  | _ => none

def selQueued : RVal → Option (List Nat)
  | RVal.queued x => some x
  | _ => none

def selC : RVal → Option PartC
  | RVal.c x => some x
  | _ => none

/-- The actions of the `q_act` entries, in order. -/
def readActs : List RVal → List Nat
  | [] => []
  | RVal.callAct d :: G => d :: readActs G
  | _ :: G => readActs G

/-- The calls, in order. -/
def readCallIds : List RVal → List Nat
  | [] => []
  | RVal.call x :: G => x :: readCallIds G
  | _ :: G => readCallIds G

/-- Each call's label, in order. -/
def readCallLabs : List RVal → List Nat
  | [] => []
  | RVal.callLab l :: G => l :: readCallLabs G
  | _ :: G => readCallLabs G

def peekAuthAct : List RVal → Nat
  | RVal.authAct d :: _ => d
  | _ => 0

/-- Each authorization record: its creator and the action of the fact after it. -/
def readAuthRecs : List RVal → List AuthRec
  | [] => []
  | RVal.auth cr :: G => ⟨cr, peekAuthAct G⟩ :: readAuthRecs G
  | _ :: G => readAuthRecs G

def viewOfRVals (vs : List RVal) : View :=
  ⟨firstSome selP vs,
   (match firstSome selLab vs with
    | some l => some ⟨readActs vs, l⟩
    | none => none),
   (match firstSome selPolicy vs, firstSome selQueued vs with
    | some y, some z => some ⟨readAuthRecs vs, y, z⟩
    | _, _ => none),
   firstSome selC vs⟩

/-- The `Keep_J` view a graph of the record's items shows. -/
def viewOfRG (G : Graph RVal) : View := viewOfRVals (List.map Fact.val G)

/-- The `Drop_ca` view a graph of the record's items shows (empty parts where a fact is missing). -/
def caViewOfRG (G : Graph RVal) : PartP × List Nat × List Nat × PartE × PartC :=
  let vs := List.map Fact.val G
  (orElse ⟨[]⟩ (firstSome selP vs), readCallLabs vs, orElse [] (firstSome selLab vs),
    ⟨readAuthRecs vs, orElse [] (firstSome selPolicy vs), orElse [] (firstSome selQueued vs)⟩,
    orElse ⟨0⟩ (firstSome selC vs))


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
  | RVal.callLab l => RVal.callLab l

def renRG (π : Ren) (G : Graph RVal) : Graph RVal := renGraph Perm.id (renRV π) G

end AgentWarrant.Edits
