import AgentWarrant.Spec.Edits.Rename
/-! `Keep_J`, `Drop_ca` and `Drop_ra` as recursive deletion over a record's dependency order
(*When Can Agents Safely Checkpoint, Fork, Restore, and Merge?*, Appendix A-F: the definitions
before Lemma 11, and Lemma 11 itself in `Thm/Edits/Deletion.lean`).

The paper's views do not just hide whole parts: `Keep_J(V)` retains the facts in `J` and removes
every reference to an omitted fact and every computed value that depends on one, recursively, and
the output is unique because computed values depend acyclically on the four recorded parts.
`Drop_ca` and `Drop_ra` remove one correspondence and everything built on it in the same way.

Here a record is a finite list of facts. Each fact has its own name (a private identifier of the
sort of record entries), a kind (its part, P, I, E or C, and whether it states the call → action or
the authorization → action correspondence, or the action of an authorization's creator call), a
value of any type and the names of the facts it refers to or is computed from. The dependency order
is acyclic when every fact depends only on facts listed before it (`Acyclic`); a record in which
some fact depends on a later one is still given an answer (that dependency counts as removed).
Deletion (`del`) walks the list once in that order and keeps a fact exactly when its kind is not
omitted and every fact it depends on was kept: a fact goes together with everything depending on
it, directly or through other facts. `Removed` states the same without an order (the least set of
names closed under "omitted kind" and "depends on a removed name"); on acyclic records with distinct
names the two agree (`delChar`, `Thm/Edits/Deletion.lean`), which is the paper's "unique output".

Choices where the paper is silent:
- which facts a view omits is a predicate on kinds (`del omit`), so `Keep_J` omits the kinds whose
  part is outside `J`, `Drop_ca` the two call → action kinds, `Drop_ra` the authorization → action
  kind and the creator call's action, the data that would reconstruct it (`Spec/Edits/Information.lean`);
- a renaming (`renGraph`) is a bijection of fact names together with any map of the values (the
  renaming of calls, actions, rule versions and result IDs acting inside each value); it keeps each
  fact's kind, as a type-preserving renaming does. -/
namespace AgentWarrant.Edits
open AgentWarrant

/-- Which correspondence a fact states, if any. -/
inductive Link where
  | plain
  | callAct
  | creatorAct
  | authAct
  deriving DecidableEq

structure Kind where
  part : Part
  link : Link
  deriving DecidableEq

/-- A recorded fact or computed value: its name, kind, value and the facts it depends on. -/
structure Fact (α : Type) where
  name : Nat
  kind : Kind
  val : α
  deps : List Nat

abbrev Graph (α : Type) := List (Fact α)

/-- The facts kept so far are named by `alive`. -/
def delAux (omit : Kind → Bool) : List Nat → Graph α → Graph α
  | _, [] => []
  | alive, f :: G => match !omit f.kind && allB (fun d => memN d alive) f.deps with
    | true => f :: delAux omit (f.name :: alive) G
    | false => delAux omit alive G

/-- Recursive deletion: remove the facts of omitted kinds and every fact depending on a removed one. -/
def del (omit : Kind → Bool) (G : Graph α) : Graph α := delAux omit [] G

/-- Every fact depends only on the names in `seen` or on facts listed before it. -/
def acyclicB : List Nat → Graph α → Bool
  | _, [] => true
  | seen, f :: G => match allB (fun d => memN d seen) f.deps with
    | true => acyclicB (f.name :: seen) G
    | false => false

/-- The dependency order is acyclic: every fact depends only on facts listed before it. -/
def Acyclic (G : Graph α) : Prop := acyclicB [] G = true

/-- Facts with the same name are the same fact. -/
def NamesDistinct (G : Graph α) : Prop := ∀ f g, f ∈ G → g ∈ G → f.name = g.name → f = g

/-- The paper's recursive deletion stated without an order of evaluation: a name is removed when
a fact of that name has an omitted kind, or depends on a removed name (`delChar` proves that `del`
keeps exactly the facts whose names are not removed, on an acyclic record with distinct names). -/
inductive Removed (omit : Kind → Bool) (G : Graph α) : Nat → Prop
  | base (f : Fact α) : f ∈ G → omit f.kind = true → Removed omit G f.name
  | dep (f : Fact α) (d : Nat) : f ∈ G → d ∈ f.deps → Removed omit G d → Removed omit G f.name

def omitJ (J : Part → Bool) (k : Kind) : Bool := !J k.part

def omitCA (k : Kind) : Bool := match k.link with
  | Link.callAct => true
  | Link.creatorAct => true
  | _ => false

def omitRA (k : Kind) : Bool := match k.link with
  | Link.authAct => true
  | Link.creatorAct => true
  | _ => false

/-- `Keep_J`: the facts of the parts in `J`, without everything depending on another part. -/
def keepJG (J : Part → Bool) (G : Graph α) : Graph α := del (omitJ J) G

/-- `Drop_ca`: without the call → action correspondence and everything depending on it. -/
def dropCAG (G : Graph α) : Graph α := del omitCA G

/-- `Drop_ra`: without which action each authorization names, the creator calls' actions, and
everything depending on them. -/
def dropRAG (G : Graph α) : Graph α := del omitRA G

/-- A renaming: fact names by the bijection `ρ`, values by `r`; kinds stay. -/
def renFact (ρ : Perm) (r : α → α) (f : Fact α) : Fact α := ⟨ρ.f f.name, f.kind, r f.val, List.map ρ.f f.deps⟩

def renGraph (ρ : Perm) (r : α → α) (G : Graph α) : Graph α := List.map (renFact ρ r) G

/-! ### The four-part record as a graph

The record of `Spec/Edits/Information.lean` as six facts: P; the I part's call → action map `q_act`
and its action labels `ℓ`; each call's label (computed from `q_act` and `ℓ`, but recorded as
depending on the `ℓ` fact only, so that `Drop_ca` keeps it as the fixed projection keeps it); E; C.
No fact of this record depends on a fact of another part or on a correspondence, so here deletion
removes exactly the omitted facts; the general theorems allow any dependencies. -/

inductive Val where
  | p (x : PartP)
  | act (x : List Nat)
  | lab (x : List Nat)
  | callLab (x : List Nat)
  | e (x : PartE)
  | c (x : PartC)

def kindOf (x : Part) : Kind := ⟨x, Link.plain⟩

def recGraph (V : Record) : Graph Val :=
  [⟨0, kindOf Part.P, Val.p V.p, []⟩, ⟨1, ⟨Part.I, Link.callAct⟩, Val.act V.i.act, []⟩,
   ⟨2, kindOf Part.I, Val.lab V.i.lab, []⟩, ⟨3, kindOf Part.I, Val.callLab (labels V.i.lab V.i.act), [2]⟩,
   ⟨4, kindOf Part.E, Val.e V.e, []⟩, ⟨5, kindOf Part.C, Val.c V.c, []⟩]

/-- `π` on the record's values: as on the record's parts, and the per-call label list is indexed
by call (as in `renDropCA`). -/
def renVal (π : Ren) : Val → Val
  | Val.p x => Val.p (renP π x)
  | Val.act x => Val.act (reindex π.call π.act.f x)
  | Val.lab x => Val.lab (reindex π.act (fun d => d) x)
  | Val.callLab x => Val.callLab (reindex π.call (fun d => d) x)
  | Val.e x => Val.e (renE π x)
  | Val.c x => Val.c (renC π x)

/-! Reading the fixed projections back from a deletion's output: the first fact of each kind of
value (`none` when there is none). -/

def getP : Graph Val → Option PartP
  | [] => none
  | ⟨_, _, Val.p x, _⟩ :: _ => some x
  | _ :: G => getP G

def getAct : Graph Val → Option (List Nat)
  | [] => none
  | ⟨_, _, Val.act x, _⟩ :: _ => some x
  | _ :: G => getAct G

def getLab : Graph Val → Option (List Nat)
  | [] => none
  | ⟨_, _, Val.lab x, _⟩ :: _ => some x
  | _ :: G => getLab G

def getCallLab : Graph Val → Option (List Nat)
  | [] => none
  | ⟨_, _, Val.callLab x, _⟩ :: _ => some x
  | _ :: G => getCallLab G

def getE : Graph Val → Option PartE
  | [] => none
  | ⟨_, _, Val.e x, _⟩ :: _ => some x
  | _ :: G => getE G

def getC : Graph Val → Option PartC
  | [] => none
  | ⟨_, _, Val.c x, _⟩ :: _ => some x
  | _ :: G => getC G

def getI (G : Graph Val) : Option PartI := match getAct G, getLab G with
  | some a, some l => some ⟨a, l⟩
  | _, _ => none

/-- The `Keep_J` view a graph shows. -/
def viewOf (G : Graph Val) : View := ⟨getP G, getI G, getE G, getC G⟩

def orElse (d : α) : Option α → α
  | some x => x
  | none => d

/-- The `Drop_ca` view a graph shows (empty parts where a fact is missing). -/
def caViewOf (G : Graph Val) : PartP × List Nat × List Nat × PartE × PartC :=
  (orElse ⟨[]⟩ (getP G), orElse [] (getCallLab G), orElse [] (getLab G), orElse ⟨[], [], []⟩ (getE G),
    orElse ⟨0⟩ (getC G))

end AgentWarrant.Edits
