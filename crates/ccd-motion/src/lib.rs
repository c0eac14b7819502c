//! Rigid in-between motions (under construction).
