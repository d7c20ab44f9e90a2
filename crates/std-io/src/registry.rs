//! The paths `connection`, `exchange` and `setup` import the slot and the
//! shared state by, until they import them from [`crate::slot`] and
//! [`crate::shared`] (the names the tokio adapter uses).

pub(crate) use crate::shared::Shared;
pub(crate) use crate::slot::{Handle, Slot};
