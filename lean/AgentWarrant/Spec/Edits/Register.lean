import AgentWarrant.Spec.Edits.Input
import AgentWarrant.Spec.Edits.WellFormed
/-! Registration: `CheckReg(𝒲, ℛ)` and the relation `𝒲 ⊑_λ ℛ` it decides (*When Can Agents Safely
Checkpoint, Fork, Restore, and Merge?*, Section IV-C, Definition 6 and Appendix A-G, the registration
lemma).

A typed Agent workflow `𝒲` is a finite labelled transition system: an initial state, transitions
that are internal (τ) or a tool call — labelled by the call site and the concrete request, both
numbers — and result states carrying a result label. The registration `ℛ` holds the root outcomes as
pomsets, each workflow call's action, each action's certified canonical request, and the stored map
λ (call site → workflow call, result label → outcome ID). Finite maps are association lists read by
their first entry (`lookupN`).

`Refines W R` (`𝒲 ⊑_λ ℛ`) is stated over paths of the LTS, never over the checker's data:
1. every reachable state can still reach a result state (no stuck state);
2. no two registered actions certify the same request (so a request determines its action, and λ
   preserves which calls refer to the same action);
3. every τ-erased tool-call trace `(r, ws)` has every letter mapped by λ to a workflow call whose
   action certifies exactly the letter's request, and its λ-image `(λ r, λ ws)` is a registered run:
   an element of `BRuns(ℛ) = {(o, w) | o a root outcome, w ∈ Lin(p_o)}`;
4. every registered run is the λ-image of a trace;
5. λ is one-to-one on traces.
Together 3–5 say that λ is a bijection from the traces onto `BRuns(ℛ)` (so the traces are
finitely many); the Use annotation of a run (`new`/`reuse`) is `Resolve` of the run and is carried by
the action identity of 2 and 3.

`checkReg` decides it without enumerating traces: reachability in `𝒲` and co-reachability of a
result; the product of `𝒲` with the prefixes of the registered run words (state, λ-image so far),
where every reached tool call must be certified and stay a prefix, and every reached result must
close a registered run; every registered run must be reached; and the synchronized product of `𝒲`
with itself (two paths with equal λ-images, flagged when their letters differ), where two results
with one outcome must be the same trace. Every reachable set is a least fixed point computed as the
complement of a deflationary iteration over an explicit finite universe (`reachSet`), with fuel the
universe's size, so there is no `partial def` on the path.

Choices where the paper is silent: a stuck state (one that cannot reach a result) is refused, as
the Python `CheckReg` does; a letter is the pair (call site, request), so two transitions of one
site with different requests are different letters; the tool-call-cycle test of the paper's proof
is not a separate check: a reachable tool-call cycle that can still reach a result gives infinitely
many traces, which no injective map into the finite `BRuns(ℛ)` admits, so conditions 3 and 5 refuse
it; signed policy authorities per source region are not modelled. -/
namespace AgentWarrant.Edits.Reg
open AgentWarrant AgentWarrant.Edits

-- A least fixed point over an explicit finite universe -----------------------------------------

def memD [DecidableEq α] (l : List α) (x : α) : Bool := anyB (fun y => decide (y = x)) l

def dedupD [DecidableEq α] : List α → List α
  | [] => []
  | a :: l => match memD l a with
    | true => dedupD l
    | false => a :: dedupD l

/-- `x` is reachable from `inits` by `next`, every element on the way in `U`. -/
inductive RReach (U inits : List α) (next : α → List α) : α → Prop
  | base {x : α} : x ∈ inits → x ∈ U → RReach U inits next x
  | step {x y : α} : RReach U inits next y → x ∈ next y → x ∈ U → RReach U inits next x

/-- The initial elements and the successors of every element of `U` no longer in `N`. -/
def frontier [DecidableEq α] (U inits : List α) (next : α → List α) (N : List α) : List α :=
  inits ++ concatL (List.map next (filt (fun y => !memD N y) U))

/-- The elements of `N` outside `F` (`F` is an argument so that it is computed once). -/
def outside [DecidableEq α] (F N : List α) : List α := filt (fun x => !memD F x) N

def shrink [DecidableEq α] (U inits : List α) (next : α → List α) (N : List α) : List α :=
  outside (frontier U inits next N) N

/-- Stop when the round `S` removed nothing from `N`, else go on with `S`. -/
def stopOr (S N : List α) (k : List α → List α) : List α := match Nat.beq (List.length S) (List.length N) with
  | true => N
  | false => k S

/-- The elements not yet reached; a round that removes nothing ends the iteration. -/
def unreachedF [DecidableEq α] (U inits : List α) (next : α → List α) : Nat → List α → List α
  | 0, N => N
  | n + 1, N => stopOr (shrink U inits next N) N (unreachedF U inits next n)

def reachSet [DecidableEq α] (U inits : List α) (next : α → List α) : List α :=
  outside (unreachedF U inits next (List.length U) U) U

-- Workflows and registrations -----------------------------------------------------------------

/-- A tool-call letter: (call site, request). -/
abbrev SLetter := Nat × Nat

structure Tr where
  src : Nat
  tgt : Nat
  lbl : Option SLetter

structure Wf where
  init : Nat
  trs : List Tr
  res : List (Nat × Nat)

structure RegR where
  outs : List POutcome
  tmpl : List (Nat × Nat)
  req : List (Nat × Nat)
  lamCall : List (Nat × Nat)
  lamRes : List (Nat × Nat)

/-- A path of `𝒲` from `s` reading the tool-call letters `ws` (τ-steps erased), built at its end. -/
inductive Path (W : Wf) (s : Nat) : List SLetter → Nat → Prop
  | refl : Path W s [] s
  | tau {ws : List SLetter} {t : Nat} (tr : Tr) :
      Path W s ws t → tr ∈ W.trs → tr.src = t → tr.lbl = none → Path W s ws tr.tgt
  | call {ws : List SLetter} {t : Nat} (tr : Tr) (l : SLetter) :
      Path W s ws t → tr ∈ W.trs → tr.src = t → tr.lbl = some l → Path W s (ws ++ [l]) tr.tgt

/-- A τ-erased tool-call trace with its result label. -/
def Trace (W : Wf) (r : Nat) (ws : List SLetter) : Prop := ∃ t, Path W W.init ws t ∧ (t, r) ∈ W.res

/-- λ on a trace's letters. -/
def imgW (R : RegR) : List SLetter → Option (List Nat)
  | [] => some []
  | l :: ws => match lookupN l.1 R.lamCall, imgW R ws with
    | some c, some u => some (c :: u)
    | _, _ => none

/-- λ maps the letter to a workflow call whose action certifies exactly the letter's request. -/
def Certified (R : RegR) (l : SLetter) : Prop :=
  ∃ c a, lookupN l.1 R.lamCall = some c ∧ lookupN c R.tmpl = some a ∧ lookupN a R.req = some l.2

/-- `(o, w) ∈ BRuns(ℛ)`. -/
def BRun (R : RegR) (o : Nat) (w : List Nat) : Prop := ∃ po, po ∈ R.outs ∧ po.id = o ∧ Lin po.pom w

/-- `𝒲 ⊑_λ ℛ` (Definition 6). -/
structure Refines (W : Wf) (R : RegR) : Prop where
  noStuck : ∀ ws s, Path W W.init ws s → ∃ ws' t r, Path W s ws' t ∧ (t, r) ∈ W.res
  distinctReq : ∀ a b q, (a, q) ∈ R.req → (b, q) ∈ R.req → a = b
  into : ∀ r ws, Trace W r ws →
    (∀ l, l ∈ ws → Certified R l) ∧ ∃ o u, lookupN r R.lamRes = some o ∧ imgW R ws = some u ∧ BRun R o u
  onto : ∀ o w, BRun R o w → ∃ r ws, Trace W r ws ∧ lookupN r R.lamRes = some o ∧ imgW R ws = some w
  inj : ∀ r ws r' ws' o u, Trace W r ws → Trace W r' ws' → lookupN r R.lamRes = some o →
    lookupN r' R.lamRes = some o → imgW R ws = some u → imgW R ws' = some u → r = r' ∧ ws = ws'

-- The check ----------------------------------------------------------------------------------------

def sts (W : Wf) : List Nat :=
  dedupD (W.init :: (List.map Tr.src W.trs ++ List.map Tr.tgt W.trs ++ List.map Prod.fst W.res))

def outOf (W : Wf) (s : Nat) : List Tr := filt (fun tr => Nat.beq tr.src s) W.trs

def succW (W : Wf) (s : Nat) : List Nat := List.map Tr.tgt (outOf W s)

def predW (W : Wf) (s : Nat) : List Nat := List.map Tr.src (filt (fun tr => Nat.beq tr.tgt s) W.trs)

def reachW (W : Wf) : List Nat := reachSet (sts W) [W.init] (succW W)

def coW (W : Wf) : List Nat := reachSet (sts W) (List.map Prod.fst W.res) (predW W)

def certB (R : RegR) (l : SLetter) : Bool := match lookupN l.1 R.lamCall with
  | some c => match lookupN c R.tmpl with
    | some a => match lookupN a R.req with
      | some q => Nat.beq q l.2
      | none => false
    | none => false
  | none => false

def brunB (R : RegR) (o : Nat) (u : List Nat) : Bool :=
  anyB (fun po => Nat.beq po.id o && memD (linsOf po.pom) u) R.outs

/-- The prefixes of the registered run words. -/
def pw (R : RegR) : List (List Nat) :=
  dedupD (concatL (List.map (fun po => concatL (List.map rawPrefixes (linsOf po.pom))) R.outs))

def pairsWith (P : List (List Nat)) (S : List Nat) : List (Nat × List Nat) :=
  concatL (List.map (fun s => List.map (fun u => (s, u)) P) S)

def u1 (W : Wf) (R : RegR) : List (Nat × List Nat) := pairsWith (pw R) (sts W)

def step1 (R : RegR) (u : List Nat) (tr : Tr) : List (Nat × List Nat) := match tr.lbl with
  | none => [(tr.tgt, u)]
  | some l => match lookupN l.1 R.lamCall with
    | some c => [(tr.tgt, u ++ [c])]
    | none => []

def next1 (W : Wf) (R : RegR) (y : Nat × List Nat) : List (Nat × List Nat) :=
  concatL (List.map (step1 R y.2) (outOf W y.1))

/-- The product of `𝒲` with the registered prefixes: (state, λ-image so far). -/
def r1 (W : Wf) (R : RegR) : List (Nat × List Nat) := reachSet (u1 W R) [(W.init, [])] (next1 W R)

def callOk (R : RegR) (u : List Nat) (tr : Tr) : Bool := match tr.lbl with
  | none => true
  | some l => match lookupN l.1 R.lamCall with
    | some c => certB R l && memD (pw R) (u ++ [c])
    | none => false

def resOk (R : RegR) (y : Nat × List Nat) (pr : Nat × Nat) : Bool :=
  !(Nat.beq pr.1 y.1) || match lookupN pr.2 R.lamRes with
    | some o => brunB R o y.2
    | none => false

def closesRun (W : Wf) (R : RegR) (o : Nat) (w : List Nat) (y : Nat × List Nat) : Bool :=
  decide (y.2 = w) && anyB (fun pr => Nat.beq pr.1 y.1 && match lookupN pr.2 R.lamRes with
    | some o' => Nat.beq o' o
    | none => false) W.res

def u2 (W : Wf) : List (Nat × Nat × Bool) :=
  concatL (List.map (fun a => concatL (List.map (fun b => [(a, b, false), (a, b, true)]) (sts W))) (sts W))

def isTau (tr : Tr) : Bool := match tr.lbl with
  | none => true
  | some _ => false

def syncOut (R : RegR) (d : Bool) (t1 t2 : Tr) : List (Nat × Nat × Bool) := match t1.lbl, t2.lbl with
  | some l1, some l2 => match lookupN l1.1 R.lamCall, lookupN l2.1 R.lamCall with
    | some c1, some c2 => match Nat.beq c1 c2 with
      | true => [(t1.tgt, t2.tgt, d || !(decide (l1 = l2)))]
      | false => []
    | _, _ => []
  | _, _ => []

def next2 (W : Wf) (R : RegR) (y : Nat × Nat × Bool) : List (Nat × Nat × Bool) :=
  List.map (fun tr => (tr.tgt, y.2.1, y.2.2)) (filt isTau (outOf W y.1)) ++
  List.map (fun tr => (y.1, tr.tgt, y.2.2)) (filt isTau (outOf W y.2.1)) ++
  concatL (List.map (fun t1 => concatL (List.map (syncOut R y.2.2 t1) (outOf W y.2.1))) (outOf W y.1))

/-- The synchronized self-product: two paths with equal λ-images, flagged once their letters differ. -/
def r2 (W : Wf) (R : RegR) : List (Nat × Nat × Bool) := reachSet (u2 W) [(W.init, W.init, false)] (next2 W R)

def injOk (R : RegR) (y : Nat × Nat × Bool) (p1 p2 : Nat × Nat) : Bool :=
  !(Nat.beq p1.1 y.1 && Nat.beq p2.1 y.2.1) || match lookupN p1.2 R.lamRes, lookupN p2.2 R.lamRes with
    | some o1, some o2 => !(Nat.beq o1 o2) || (!y.2.2 && Nat.beq p1.2 p2.2)
    | _, _ => true

def chkReq (R : RegR) : Bool := allB (fun p => allB (fun q => !(Nat.beq p.2 q.2) || Nat.beq p.1 q.1) R.req) R.req
def chkStuck (W : Wf) : Bool := allB (memD (coW W)) (reachW W)
def chkInit (W : Wf) (R : RegR) : Bool := memD (r1 W R) (W.init, [])
def chkCall (W : Wf) (R : RegR) : Bool := allB (fun y => allB (callOk R y.2) (outOf W y.1)) (r1 W R)
def chkRes (W : Wf) (R : RegR) : Bool := allB (fun y => allB (resOk R y) W.res) (r1 W R)
def chkOntoIn (W : Wf) (R : RegR) (R1 : List (Nat × List Nat)) : Bool :=
  allB (fun po => allB (fun w => anyB (closesRun W R po.id w) R1) (linsOf po.pom)) R.outs
def chkOnto (W : Wf) (R : RegR) : Bool := chkOntoIn W R (r1 W R)
def chkInj (W : Wf) (R : RegR) : Bool := allB (fun y => allB (fun p1 => allB (injOk R y p1) W.res) W.res) (r2 W R)

/-- The seven checks with the names the oracle reports. -/
def regChecks (W : Wf) (R : RegR) : List (String × Bool) :=
  [("actions-share-a-request", chkReq R), ("stuck-state", chkStuck W), ("no-registered-run", chkInit W R),
   ("request-mismatch", chkCall W R), ("trace-not-registered", chkRes W R), ("run-not-covered", chkOnto W R),
   ("map-not-injective", chkInj W R)]

/-- `CheckReg(𝒲, ℛ)`. -/
def checkReg (W : Wf) (R : RegR) : Bool :=
  chkReq R && chkStuck W && chkInit W R && chkCall W R && chkRes W R && chkOnto W R && chkInj W R

end AgentWarrant.Edits.Reg
