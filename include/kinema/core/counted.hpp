// kinema/core: a count with its noun, for messages: "1 animation", "3 animations".
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace kinema {

// "`count` `singular`" for a count of 1, else "`count` `plural`". Without a plural,
// the singular takes English's regular ending: "s", or "es" after s, x, sh or ch
// ("meshes"); an irregular one ("matrix", "matrices") is given.
std::string counted(std::size_t count, std::string_view singular, std::string_view plural = {});

}  // namespace kinema
