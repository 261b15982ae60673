import AgentWarrant.Spec.Edits.Verify
/-! The rejection proof the checker's own iteration yields (*When Can Agents Safely Checkpoint, Fork,
Restore, and Merge?*, Section V-C3, Appendix A-B): `C_fp = (B̂₀, E₀, …, E_k)` with `E_i` the pairs
`Φ̂` removes from `B̂_i`, each with a witness — the first prefix `z` of its word at which some
compatible outcome is unsupported, and the first such outcome. `Thm/Edits/Certificate.lean` proves
the verifier accepts it whenever the checker rejects (the verifier's completeness).
Choices where the paper is silent: the listed family is `B̂₀` without repeats (first occurrences
dropped in favour of later ones); rounds stop when the family is empty; the fuel is `|B̂₀|`. -/
namespace AgentWarrant.Edits
open AgentWarrant

def dedupC : List Cand → List Cand
  | [] => []
  | c :: l => match memC c l with
    | true => dedupC l
    | false => c :: dedupC l

def firstFalse (p : α → Bool) : List α → Option α
  | [] => none
  | x :: l => match p x with
    | true => firstFalse p l
    | false => some x

/-- Why `Φ̂` removes `c` from `B`: a prefix of its word and an unsupported compatible outcome. -/
def witness (i : Inst) (B : List Cand) (c : Cand) : Removal :=
  match firstFalse (fun z => allB (supports B z) (compat i z)) (prefixes c.2) with
  | some z => match firstFalse (supports B z) (compat i z) with
    | some o => ⟨c, z, o⟩
    | none => ⟨c, [], 0⟩
  | none => ⟨c, [], 0⟩

/-- The round `E_i`: every pair of `B` that `Φ̂` removes, with its witness. -/
def removals (i : Inst) (B : List Cand) : List Removal :=
  List.map (witness i B) (filt (fun c => notB (keep i B c)) B)

def proofRounds (i : Inst) : Nat → List Cand → List (List Removal)
  | 0, _ => []
  | n + 1, B => match isNil B with
    | true => []
    | false => removals i B :: proofRounds i n (rest B (removals i B))

def proofFamily (i : Inst) : List Cand := dedupC (b0 i)

/-- The rejection proof of a checker instance. -/
def proofOf (i : Inst) : List (List Removal) :=
  proofRounds i (List.length (proofFamily i)) (proofFamily i)

end AgentWarrant.Edits
