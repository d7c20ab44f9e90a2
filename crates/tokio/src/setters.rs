//! The builders' setter macro, declared before the modules that use it.

/// Builder methods that each set one field of the builder's settings
/// (`self.s`), each with its doc: `name(arg: Type, ...) => field = value;`
/// sets the field to the value, `name(arg: Type, ...) => field.method(arg, ...);`
/// to what the field's own method makes of it.
macro_rules! setters {
    () => {};
    ($(#[$doc:meta])* $name:ident($($arg:ident: $ty:ty),+) => $field:ident = $value:expr; $($rest:tt)*) => {
        $(#[$doc])*
        pub fn $name(mut self, $($arg: $ty),+) -> Self {
            self.s.$field = $value;
            self
        }
        setters! { $($rest)* }
    };
    ($(#[$doc:meta])* $name:ident($($arg:ident: $ty:ty),+) => $field:ident.$method:ident($($a:ident),*); $($rest:tt)*) => {
        $(#[$doc])*
        pub fn $name(mut self, $($arg: $ty),+) -> Self {
            self.s.$field = self.s.$field.$method($($a),*);
            self
        }
        setters! { $($rest)* }
    };
}
