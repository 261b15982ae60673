import AgentWarrant.Spec.Edits.DeriveTreeSrc
/-! The derivation the runtime and ideal oracles' machines run (*When Can Agents Safely Checkpoint, Fork,
Restore, and Merge?*, Section V-A, Table I's Fork and Restore rows, Section IV-B1's remaining-work equation):
`Derive`'s table, where an entry may carry the judged request for its edit, in which case the new leaves'
contracts are read from Lean's edit judgment, not from the change `Derive` names.

An entry is the derivation `Derive` gives (its instance and tree change, as for `treeDerN`) and, for an edit
whose derivation lies in the binary term model, a `RunJReq`: the branch's region and the checkpoint store as
terms, in the record's own call numbering, the request, and the naming of the judgment's fresh calls
(`out`). For such an entry the machine takes the change's form from the request, its branch or group from
the change, runs the source check of `DeriveTreeSrc` against the record itself (`srcAgreesB`: the leaf's
`Γ_b/raw(χ_b)` and every stored copy's must be the terms' outcomes; a Fork or Restore that fails it has no
derivation, as in `checkedTab`), judges the request (`judgeA`; none: no derivation) and installs the
judged record's new-leaf contracts (`judgedTEdit`) with the fresh calls named by `out`, under Lean's fresh
node names (`leanNames`). An `out` that names two of the judged contracts' calls alike (`runJOutInjB`) has
no derivation either: the copies' calls would merge. Nor has an `out` that names a judged call as a call of
a leaf the change keeps (`runJKeptCalls`): the derived contract would name one call twice, which the Python
runtime's record check refuses (its duplicate-call check on the whole tree's contract), or as a call the
record has processed (`runJProcCalls`, the replaced branch's `χ_b` among them): the Python record check
refuses a processed call back in the workflow (both in `runJOutFreshB` against `runJStaleCalls`). An entry without one keeps `treeDerN`'s path: `Derive`'s change with Lean's names.

Choices, where the paper is silent or the oracle forces one:
- The judgment numbers a copy's calls itself (`2c`, `2c + 1`, `c + n`, and `instK`'s template calls); the
  record's calls for them are the caller's (`out`, applied to every event and order pair by `renamePom`),
  since later tool calls name them. `out` is a naming only: the contracts' shape is the judgment's.
- The instance the entry carries (outcomes, maps, automaton) stays `Derive`'s, as on `treeDerN`'s path;
  only the tree change, so the new leaves' contracts, comes from the judgment
- Freshness is checked against the contract calls (every outcome pomset's, so processed calls and the calls
  of untaken outcomes too) of every leaf the change keeps: all but the branch a Fork or RestoreReplace
  replaces (`runJFreshGone`); RestoreLive keeps `b`, so `b`'s calls count. It is also checked against every
  call the record has processed (`Core.procd`, the whole `χ`, as Python's processed-call check reads it, not
  only the replaced branch's `χ_b`). Stored copies' calls are not checked against: Python does not require
  it (a copy shares its branch's call names by construction, and the contract its record check reads holds
  no copy). -/
namespace AgentWarrant.Edits.DeriveTreeRunJ
open AgentWarrant AgentWarrant.Edits AgentWarrant.Edits.Machine AgentWarrant.Edits.DeriveTreeJudged
open AgentWarrant.Edits.DeriveTreeSrc AgentWarrant.Edits.DeriveCover AgentWarrant.Edits.DeriveFork

/-- A judged request: the branch's region and the store as terms (record's calls), the request, and the
record's names for the judgment's fresh calls. -/
structure RunJReq where
  region : Tm
  store : Nat → Option Tm
  req : AReq
  out : Nat → Nat

/-- The branch (Fork, Restore) or group (Merge) a change names. -/
def editTarget : TEdit → Nat
  | TEdit.keep => 0
  | TEdit.fork _ b _ _ _ _ _ => b
  | TEdit.restore _ b _ _ _ => b
  | TEdit.select g _ _ _ => g
  | TEdit.join g _ _ => g

/-- A change with every new leaf's contract renamed by `f`. -/
def renameTEdit (f : Nat → Nat) : TEdit → TEdit
  | TEdit.keep => TEdit.keep
  | TEdit.fork par b g bl br gl gr => TEdit.fork par b g bl br (List.map (renamePom f) gl) (List.map (renamePom f) gr)
  | TEdit.restore live b g bk gk => TEdit.restore live b g bk (List.map (renamePom f) gk)
  | TEdit.select g arm bj gj => TEdit.select g arm bj (List.map (renamePom f) gj)
  | TEdit.join g bj gj => TEdit.join g bj (List.map (renamePom f) gj)

/-- The request's source terms, as `src` gives them to `derJT`. -/
def runJSrc (j : RunJReq) : Core → Tm × (Nat → Option Tm) := fun _ => (j.region, j.store)

/-- The source check of a judged request on the record `c` for the branch `x`: vacuous for a row whose new
leaves copy no source (`readsLeaf`), else `srcAgreesB`. -/
def runJAgrees (j : RunJReq) (c : Core) (x : Nat) : Bool := !readsLeaf j.req || srcAgreesB (runJSrc j) c x

/-- The judged change for the branch or group `x`, the fresh calls named by `out` (no node names yet). -/
def runJEdit (j : RunJReq) (D : Edits.Derived) (x : Nat) : TEdit := renameTEdit j.out (judgedTEdit j.req D x)

/-- The calls a pomset names: its events and both ends of every order pair. -/
def runJPomCalls (p : Pomset) : List Nat :=
  p.events ++ (List.map Prod.fst p.order ++ List.map Prod.snd p.order)

/-- The calls of the judged record's new-leaf contracts on `x`, before `out` names them: the calls the
judgment allocates for the copies, which `out` must keep apart. -/
def runJCalls (j : RunJReq) (D : Edits.Derived) (x : Nat) : List Nat :=
  concatL (List.map runJPomCalls (concatL (newContracts (judgedTEdit j.req D x))))

/-- `f` is one-to-one on the calls `l`: two calls of `l` it names alike are the same call. -/
def runJOutInjB (f : Nat → Nat) (l : List Nat) : Bool :=
  allB (fun a => allB (fun b => !(Nat.beq (f a) (f b)) || Nat.beq a b) l) l

/-- The leaf a change replaces: a Fork's and a RestoreReplace's branch; none for RestoreLive (it keeps
`b`), a Merge or no change. -/
def runJFreshGone : TEdit → Option Nat
  | TEdit.fork _ b _ _ _ _ _ => some b
  | TEdit.restore false b _ _ _ => some b
  | _ => none

/-- A node whose calls the fresh names must avoid: a leaf the change keeps. -/
def runJFreshKept : Option Nat → TNode → Bool
  | none, n => Nat.beq n.kind 0
  | some b, n => Nat.beq n.kind 0 && !(Nat.beq n.name b)

/-- The contract calls of the tree's leaves the change keeps (`gone`: the leaf it replaces). -/
def runJKeptCalls (t : Tree) (gone : Option Nat) : List Nat :=
  concatL (List.map (fun n => concatL (List.map runJPomCalls n.gamma)) (filt (runJFreshKept gone) t))

/-- The calls the record has processed (its `χ`, every branch's: the replaced branch's `χ_b` among them,
and the calls of branches an earlier edit removed). -/
def runJProcCalls (c : Core) : List Nat := List.map (fun (p : Proc) => p.letter.call) c.procd

/-- The calls the fresh names must avoid: the contract calls of the leaves the change keeps and every
call the record has processed. -/
def runJStaleCalls (c : Core) (gone : Option Nat) : List Nat := runJKeptCalls c.tree gone ++ runJProcCalls c

/-- `f` names no call of `l` as a call of `r`. -/
def runJOutFreshB (f : Nat → Nat) (l r : List Nat) : Bool :=
  allB (fun a => !(memN (f a) r)) l

/-- The table the machine reads: a judged entry's change from Lean's judgment (checked against the
record, `out` checked one-to-one on the calls the judgment allocates, `runJOutInjB`, and fresh for the
leaves the change keeps and the record's processed calls, `runJOutFreshB` against `runJStaleCalls`), any
other entry's as `Derive` names it; Lean's node names on both. -/
def runJTab (der : Core → Nat → Option ((Machine.Derived × TEdit) × Option RunJReq)) (c : Core) (u : Nat) :
    Option (Machine.Derived × TEdit) :=
  match der c u with
  | none => none
  | some ((d, e), none) => some (d, leanNames c.tree (reserved c) e)
  | some ((d, e), some j) => match runJAgrees j c (editTarget e) with
    | false => none
    | true => match judgeA j.region j.store j.req with
      | none => none
      | some D => match runJOutInjB j.out (runJCalls j D (editTarget e)) with
        | false => none
        | true => match runJOutFreshB j.out (runJCalls j D (editTarget e))
            (runJStaleCalls c (runJFreshGone (runJEdit j D (editTarget e)))) with
          | false => none
          | true => some (d, leanNames c.tree (reserved c) (runJEdit j D (editTarget e)))

/-- `Derive` as the runtime and ideal oracles' machines run it. -/
def derRunJ (der : Core → Nat → Option ((Machine.Derived × TEdit) × Option RunJReq)) : Derivation :=
  treeDer (runJTab der)

end AgentWarrant.Edits.DeriveTreeRunJ
