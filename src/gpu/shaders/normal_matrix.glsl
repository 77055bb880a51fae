// The normal's transform for any matrix m: its cofactor matrix, det(m) m^-T, made to
// keep orientation where det(m) < 0 (a mirror). The result is normalised by the caller.
vec3 transformNormal(mat4 m, vec3 n) {
    vec3 c0 = vec3(m[0]), c1 = vec3(m[1]), c2 = vec3(m[2]);
    mat3 cofactor = mat3(cross(c1, c2), cross(c2, c0), cross(c0, c1));
    vec3 r = cofactor * n;
    return dot(c0, cross(c1, c2)) < 0.0 ? -r : r;
}
