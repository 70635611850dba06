//! Not built yet: see this crate's README.md for its purpose and planned API.
