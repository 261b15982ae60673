import AgentWarrant.Spec.Edits.DeriveCover
/-! The coverage relation of a record the edit judgment derives, computed (*When Can Agents Safely
Checkpoint, Fork, Restore, and Merge?*, Section V-A2, `Covers_u`; Table I): `relB T K r` is the
decision of `D.rel` for the record `D = judge T K r` (`Spec/Edits/DeriveCover.lean`), one clause per
row, and `coversOf` lists the target results (by position in `⟦T'⟧`) covering a required source
result. The `edit_derive` oracle judgment (`Oracle/DeriveRT.lean`) reports these lists with the
derived instance, so the DRT can compare them with the covering outcomes Python's `Derive` computes.

Choice where the paper is silent: a clause for a request whose judgment derives nothing (a
MergeSelect on a region that is not a choice) answers `false`; it is never consulted. -/
namespace AgentWarrant.Edits.DeriveRT
open AgentWarrant AgentWarrant.Edits AgentWarrant.Edits.DeriveCover

/-- Equality of two results, decided. -/
def toutB (x y : TOut) : Bool := decide (x.sel = y.sel) && decide (x.pom = y.pom)

/-- `D.rel x r` for the record `judge T K q`, decided. -/
def relB (T : Tm) (K : Nat → Option Tm) : CReq → TOut → Bool × TOut → Bool
  | CReq.forkChoice g, x, r =>
      decide (x.sel = (g, r.1) :: r.2.sel) && decide (x.pom = renamePom (onSide r.1 dblL dblR) r.2.pom)
  | CReq.forkParallel, x, (false, o) =>
      anyB (fun o' => toutB x (joinOut false (renameOut dblL o) (renameOut dblR o'))) T.outs
  | CReq.forkParallel, x, (true, o) =>
      anyB (fun o' => toutB x (joinOut false (renameOut dblL o') (renameOut dblR o))) T.outs
  | CReq.restoreReplace _ n, x, r => r.1 && toutB x (renameOut (shift n) r.2)
  | CReq.restoreLive k n, x, (false, o) => match K k with
    | some Ck => anyB (fun o' => toutB x (joinOut false o (renameOut (shift n) o'))) Ck.outs
    | none => false
  | CReq.restoreLive _ n, x, (true, o) =>
      anyB (fun o' => toutB x (joinOut false o' (renameOut (shift n) o))) T.outs
  | CReq.mergeSelect _ w EJ, x, r => match T with
    | Tm.choice _ _ _ => decide (r.1 = w) && anyB (fun e => toutB x (joinOut true r.2 e)) EJ.outs
    | _ => false
  | CReq.mergeJoin EJ, x, (false, o) => match T with
    | Tm.par _ TR => anyB (fun o' => anyB (fun e => toutB x (joinOut true (joinOut false o o') e)) EJ.outs) TR.outs
    | _ => false
  | CReq.mergeJoin EJ, x, (true, o) => match T with
    | Tm.par TL _ => anyB (fun o' => anyB (fun e => toutB x (joinOut true (joinOut false o' o) e)) EJ.outs) TL.outs
    | _ => false
  | CReq.extend, x, r => toutB x r.2

/-- The target results (by position in `outs`) that `cov` relates to the required result `r`. -/
def coversOf (cov : TOut → Bool × TOut → Bool) (r : Bool × TOut) : List TOut → List Nat
  | [] => []
  | x :: l => match cov x r with
    | true => 0 :: List.map Nat.succ (coversOf cov r l)
    | false => List.map Nat.succ (coversOf cov r l)

end AgentWarrant.Edits.DeriveRT
