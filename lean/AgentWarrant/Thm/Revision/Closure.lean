import AgentWarrant.Spec.Revision.Closure
/-! A relation that passes the closure check and contains the starting pair preserves every
client made of the certificate's units, at every length (Agenra Sections 1 and 7.1). -/
namespace AgentWarrant.Revision.Closure
open AgentWarrant

theorem andLeft {a b : Bool} (h : (a && b) = true) : a = true := by cases a <;> simp at h ⊢
theorem memRMem {rel : List (Usage × Usage)} {x : Usage × Usage} (h : memR rel x = true) : x ∈ rel := by
  have ⟨y, hy, e⟩ := anyBElim h
  rw [← ofDecideEqTrue e]
  exact hy

theorem andRight {a b : Bool} (h : (a && b) = true) : b = true := by cases a <;> cases b <;> simp at h ⊢

/-- The check's content: from a related pair, a unit of the certificate that the old lists charge is
charged by the new lists into a related pair. -/
theorem closedStep {O N : List (List LEntry)} {units : List Unit'} {rel : List (Usage × Usage)} {start : Usage × Usage}
    (hc : closedC O N units rel start = true) (s : Usage × Usage) (hs : memR rel s = true)
    (u : Unit') (hu : u ∈ units) (o' : Usage)
    (ho : stepAll u.reqs O s.1 u.old = some o') :
    ∃ n', stepAll u.reqs N s.2 u.new = some n' ∧ memR rel (o', n') = true := by
  have hall := allBElim (andRight hc) s (memRMem hs)
  have hok := allBElim hall u hu
  simp [okUnit, ho] at hok
  cases hn : stepAll u.reqs N s.2 u.new with
  | none => rw [hn] at hok; simp at hok
  | some n' => rw [hn] at hok; exact ⟨n', rfl, hok⟩


/-- Closure implies client preservation at every length: every client (any finite sequence of the
certificate's units) that the old lists admit from the start is admitted by the new lists, and
the final usage vectors are related. -/
theorem closedPreserves (O N : List (List LEntry)) (units : List Unit') (rel : List (Usage × Usage))
    (start : Usage × Usage) (hc : closedC O N units rel start = true) :
    ∀ (client : List Unit') (s : Usage × Usage) (of : Usage), memR rel s = true → (∀ u, u ∈ client → u ∈ units) →
    runSide true O s.1 client = some of →
    ∃ nf, runSide false N s.2 client = some nf ∧ memR rel (of, nf) = true
  | [], s, of, hs, _, h => by
    simp [runSide] at h
    rw [← h]
    cases s with
    | mk a b => exact ⟨b, rfl, hs⟩
  | u :: client, s, of, hs, hu, h => by
    cases ho : stepAll u.reqs O s.1 u.old with
    | none => simp [runSide, ho] at h
    | some o' =>
      simp [runSide, ho] at h
      have ⟨n', hn, hr⟩ := closedStep hc s hs u (hu u (Mem.head _)) o' ho
      have ⟨nf, hnf, hrf⟩ := closedPreserves O N units rel start hc client (o', n') of hr
        (fun x hx => hu x (Mem.tail _ hx)) h
      exact ⟨nf, by simp [runSide, hn]; exact hnf, hrf⟩

/-- From the starting pair. -/
theorem closedPreservesFromStart (O N : List (List LEntry)) (units : List Unit') (rel : List (Usage × Usage))
    (start : Usage × Usage) (hc : closedC O N units rel start = true)
    (client : List Unit') (hu : ∀ u, u ∈ client → u ∈ units) (of : Usage) (h : runSide true O start.1 client = some of) :
    ∃ nf, runSide false N start.2 client = some nf ∧ memR rel (of, nf) = true :=
  closedPreserves O N units rel start hc client start of (andLeft hc) hu h

end AgentWarrant.Revision.Closure
